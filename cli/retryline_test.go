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

// TestRetryLineFitsTheTerminal: on a terminal the full reason of a
// failed reconnection is printed once, and the live line rewritten per
// attempt stays narrower than the terminal, in both languages, so it
// never wraps into rows that ESC[2K does not clear.
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
		if n := strings.Count(got, long.Error()); n != 1 {
			t.Errorf("%s: the full reason shown %d times, want once:\n%q", lang, n, got)
		}
		for _, seg := range strings.Split(got, "\r\x1b[2K")[1:] {
			if strings.Contains(seg, "\n") {
				continue // a full line of its own, printed once
			}
			if w := runewidth.StringWidth(ansiSeq.ReplaceAllString(seg, "")); w >= 24 {
				t.Errorf("%s: live line %q is %d columns, want < 24", lang, seg, w)
			}
		}
		if !strings.HasSuffix(got, "\r\x1b[2K") {
			t.Errorf("%s: the live line is not cleared at the end: %q", lang, got)
		}
	}
}
