package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// ansiSeq matches the escape sequences the REPL writes.
var ansiSeq = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// TestRetryLineFitsTheTerminal: on a terminal a failed reconnection's
// reason is printed once, on a line cut to the terminal's width, and the
// live line rewritten per attempt stays narrower than the terminal, in
// both languages, so nothing wraps into rows that ESC[2K does not
// clear; each attempt is reported once.
func TestRetryLineFitsTheTerminal(t *testing.T) {
	long := errors.New(strings.Repeat("the server at 127.0.0.1:9999 did not answer the handshake in time ", 4))
	for _, lang := range []string{"en_US.UTF-8", "zh_CN.UTF-8"} {
		var out strings.Builder
		c := &CLI{Stdout: &out, Getenv: func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}}
		r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
		r.outTTY, r.termWidth = true, func() int { return 24 }
		l := &retryLine{r: r}
		for i := 1; i <= 5; i++ {
			l.failed(i, long, 1500*time.Millisecond)
		}
		l.clear()
		got := out.String()
		if n := strings.Count(got, ": the") + strings.Count(got, "：the"); n != 1 {
			t.Errorf("%s: the reason shown %d times, want once:\n%q", lang, n, got)
		}
		for _, row := range strings.Split(ansiSeq.ReplaceAllString(got, ""), "\n") {
			for _, seg := range strings.Split(row, "\r") {
				if w := runewidth.StringWidth(seg); w >= 24 {
					t.Errorf("%s: line %q is %d columns, want < 24", lang, seg, w)
				}
			}
		}
		if !strings.HasSuffix(got, "\r\x1b[2K") {
			t.Errorf("%s: the live line is not cleared at the end: %q", lang, got)
		}
	}
}

// TestRetryLineEachAttemptOnce: with a wide terminal the first failure
// is its reason line, said once, and a live line naming the next
// attempt (not the failure again), the delay rounded to tenths of a
// second.
func TestRetryLineEachAttemptOnce(t *testing.T) {
	var out strings.Builder
	c := &CLI{Stdout: &out, Getenv: func(string) string { return "" }}
	r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
	r.outTTY, r.termWidth = true, func() int { return 100 }
	l := &retryLine{r: r}
	l.failed(1, errors.New("refused"), 161*time.Millisecond)
	l.failed(2, errors.New("refused"), 1396*time.Millisecond)
	got := ansiSeq.ReplaceAllString(out.String(), "")
	for _, want := range []string{"reconnect failed: refused\n", "retrying in 0.2s (attempt 2)", "retrying in 1.4s (attempt 3)"} {
		if !strings.Contains(got, want) {
			t.Errorf("output %q lacks %q", got, want)
		}
	}
	if n := strings.Count(got, "failed"); n != 1 {
		t.Errorf("the failure reported %d times: %q", n, got)
	}
}

// TestRetryLineHintOwnLine: a reason's hint is not cut off with the
// reason: the reason line leaves it out and it follows on a line of its
// own, once, in both languages.
func TestRetryLineHintOwnLine(t *testing.T) {
	refused := fmt.Errorf("dial: %w", syscall.ECONNREFUSED)
	for lang, want := range map[string][2]string{
		"":            {"reconnect failed: the opsassist server is not running at 127.0.0.1:9999 (connection refused)\n", "start it with `opsassistd`"},
		"zh_CN.UTF-8": {"重连失败：127.0.0.1:9999 上没有运行 opsassist 服务（连接被拒绝）\n", "用 `opsassistd` 启动它"},
	} {
		var out strings.Builder
		c := &CLI{Stdout: &out, Getenv: func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}}
		r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
		r.outTTY, r.termWidth = true, func() int { return 200 }
		l := &retryLine{r: r}
		for i := 1; i <= 3; i++ {
			l.failed(i, refused, time.Second)
		}
		got := ansiSeq.ReplaceAllString(out.String(), "")
		if !strings.Contains(got, want[0]+want[1]) || strings.Count(got, want[1]) != 1 {
			t.Errorf("%q: output %q, want reason line %q then the hint %q once", lang, got, want[0], want[1])
		}
	}
	for in, want := range map[string][2]string{
		"a (b — c) — d": {"a (b — c)", "d"},
		"甲（乙——丙）":       {"甲（乙——丙）", ""},
		"甲——乙":          {"甲", "乙"},
	} {
		if r, h := splitHint(in); r != want[0] || h != want[1] {
			t.Errorf("splitHint(%q) = %q, %q; want %q, %q", in, r, h, want[0], want[1])
		}
	}
}

// TestLiveLineEndedBeforeOutput: any REPL output after a live line
// starts on a cleared row, not at the live line's end.
func TestLiveLineEndedBeforeOutput(t *testing.T) {
	var out strings.Builder
	c := &CLI{Stdout: &out, Getenv: func(string) string { return "" }}
	r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
	r.outTTY, r.termWidth = true, func() int { return 100 }
	l := &retryLine{r: r}
	l.failed(1, errors.New("refused"), time.Second)
	r.info("conversation bc5bcce1 not found; starting a new one")
	l.clear()
	got := strings.NewReplacer(ansiDim, "", ansiReset, "").Replace(out.String())
	if !strings.Contains(got, "(attempt 2)\r\x1b[2Kconversation bc5bcce1") || strings.HasSuffix(got, "\r\x1b[2K") {
		t.Errorf("output %q", got)
	}
}

func TestRetryDelay(t *testing.T) {
	for d, want := range map[time.Duration]string{161 * time.Millisecond: "0.2s", 1396 * time.Millisecond: "1.4s", 5 * time.Millisecond: "0.1s", 12 * time.Second: "12.0s"} {
		if got := retryDelay(d); got != want {
			t.Errorf("retryDelay(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestRetryLineNarrowTerminal: at terminal widths 1 to 3 the retry lines
// print without a panic, and none fills a row.
func TestRetryLineNarrowTerminal(t *testing.T) {
	for _, lang := range []string{"en_US.UTF-8", "zh_CN.UTF-8"} {
		for w := 1; w <= 3; w++ {
			var out strings.Builder
			c := &CLI{Stdout: &out, Getenv: func(k string) string {
				if k == "LANG" {
					return lang
				}
				return ""
			}}
			r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
			r.outTTY, r.termWidth = true, func() int { return w }
			l := &retryLine{r: r}
			l.failed(1, errors.New("连接被拒绝 refused"), time.Second)
			l.failed(2, errors.New("another reason"), time.Second)
			l.clear()
			for _, row := range strings.Split(ansiSeq.ReplaceAllString(out.String(), ""), "\n") {
				for _, seg := range strings.Split(row, "\r") {
					if sw := runewidth.StringWidth(seg); sw >= w {
						t.Errorf("%s width %d: %q is %d columns", lang, w, seg, sw)
					}
				}
			}
		}
	}
}

// FuzzFitLine: fitLine never panics, and its line is narrower than the
// terminal, holds no control character (ESC, newline, C1), and is a
// prefix of s with control characters as spaces and at most "…" added,
// whole runes only.
func FuzzFitLine(f *testing.F) {
	f.Add("reconnect failed: connection refused", 1)
	f.Add("重连失败：连接被拒绝", 2)
	f.Add("重连失败：连接被拒绝", 3)
	f.Add("ab", 0)
	f.Add("\u0301e\u200b😀", -5)
	f.Add("reconnect failed: \x1b[2J\x1b[Hboom\nsecond line\r\u009b31m", 20)
	f.Add("重连失败：服务器说\n\t\x1b]0;title\x07", 12)
	f.Fuzz(func(t *testing.T, s string, w int) {
		got := fitLine(s, w)
		if i := strings.IndexFunc(got, unicode.IsControl); i >= 0 {
			t.Fatalf("%q at width %d: %q has a control character at %d", s, w, got, i)
		}
		s = printable(s)
		if w <= 1 && got != "" {
			t.Fatalf("width %d: %q", w, got)
		}
		if gw := runewidth.StringWidth(got); got != "" && gw >= w {
			t.Fatalf("%q at width %d: %q is %d columns", s, w, got, gw)
		}
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Fatalf("%q at width %d: %q is not its prefix", s, w, got)
		}
	})
}

// TestRetryLineControlCharacters: a reason (or --debug's raw error) that
// holds ESC, newlines or C1 controls, and a hint wider than the terminal,
// still print as rows narrower than it, with no control character but
// the REPL's own line handling (its dim style, "\r\x1b[2K" and "\n").
func TestRetryLineControlCharacters(t *testing.T) {
	hostile := fmt.Errorf("dial: \x1b[2J\x1b[Hgotcha\nsecond line\r\u009b31m: %w", syscall.ECONNREFUSED)
	for _, debug := range []bool{false, true} {
		for _, lang := range []string{"", "zh_CN.UTF-8"} {
			for _, w := range []int{12, 20, 40, 200} {
				var out strings.Builder
				c := &CLI{Stdout: &out, Getenv: func(k string) string {
					if k == "LANG" {
						return lang
					}
					return ""
				}}
				r := c.newREPL(cliConfig{server: "127.0.0.1:9999", debug: debug}, nil)
				r.outTTY, r.termWidth = true, func() int { return w }
				l := &retryLine{r: r}
				l.failed(1, hostile, time.Second)
				l.failed(2, errors.New("reason \x1b]0;title\x07 two\nthree — a hint that is much wider than the terminal is"), time.Second)
				l.clear()
				got := strings.NewReplacer(ansiDim, "", ansiReset, "", "\r\x1b[2K", "\n").Replace(out.String())
				for _, row := range strings.Split(got, "\n") {
					if i := strings.IndexFunc(row, unicode.IsControl); i >= 0 {
						t.Errorf("debug %v %q width %d: row %q has a control character at %d", debug, lang, w, row, i)
					}
					if sw := runewidth.StringWidth(row); sw >= w {
						t.Errorf("debug %v %q width %d: row %q is %d columns", debug, lang, w, row, sw)
					}
				}
			}
		}
	}
}
