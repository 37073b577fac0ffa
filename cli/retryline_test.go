package cli

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

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
// is its reason line and one live line, attempt 1 named once, the delay
// rounded to tenths of a second.
func TestRetryLineEachAttemptOnce(t *testing.T) {
	var out strings.Builder
	c := &CLI{Stdout: &out, Getenv: func(string) string { return "" }}
	r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
	r.outTTY, r.termWidth = true, func() int { return 100 }
	l := &retryLine{r: r}
	l.failed(1, errors.New("refused"), 161*time.Millisecond)
	l.failed(2, errors.New("refused"), 1396*time.Millisecond)
	got := ansiSeq.ReplaceAllString(out.String(), "")
	for _, want := range []string{"reconnect failed: refused\n", "attempt 1 failed; retrying in 0.2s", "attempt 2 failed; retrying in 1.4s"} {
		if !strings.Contains(got, want) {
			t.Errorf("output %q lacks %q", got, want)
		}
	}
	if n := strings.Count(got, "attempt 1 "); n != 1 {
		t.Errorf("attempt 1 reported %d times: %q", n, got)
	}
}

func TestRetryDelay(t *testing.T) {
	for d, want := range map[time.Duration]string{161 * time.Millisecond: "0.2s", 1396 * time.Millisecond: "1.4s", 5 * time.Millisecond: "0.1s", 12 * time.Second: "12.0s"} {
		if got := retryDelay(d); got != want {
			t.Errorf("retryDelay(%v) = %q, want %q", d, got, want)
		}
	}
}
