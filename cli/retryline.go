package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"go.uber.org/zap"
	"golang.org/x/term"
)

// defaultTermWidth is the width assumed for a terminal whose size
// cannot be read.
const defaultTermWidth = 80

// terminalWidth returns the width of the terminal v writes to, or 0 when
// v is not one or its size cannot be read.
func terminalWidth(v any) int {
	f, ok := v.(interface{ Fd() uintptr })
	if !ok {
		return 0
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// retryLine reports a reconnection's failed attempts, each once. Off a
// terminal it prints the first failure only. On one it prints each new
// reason on a line of its own ("reconnect failed: REASON", cut to the
// terminal's width), the reason's hint (what to do) once on a line after
// it, cut the same way, and keeps one short live line ("retrying in D (attempt N)") that
// the REPL rewrites in place and ends before any other output
// (repl.showLive). Cut lines do not wrap (ESC[2K clears one row only),
// so rows do not pile up.
type retryLine struct {
	r      *repl
	reason string // the reason last printed
	hint   string // the hint last printed
}

// failed is client.Options.OnRetry.
func (l *retryLine) failed(attempt int, err error, delay time.Duration) {
	r := l.r
	r.cli.logger().Debug("reconnect attempt failed", zap.Int("attempt", attempt), zap.Error(err))
	reason := r.cli.friendly(err, r.cfg.server, r.cfg.debug)
	reason = printable(reason) // a server's reason may hold escapes or newlines
	if !r.outTTY {
		if attempt == 1 {
			// Off a terminal, one line per state change: the first failure.
			r.info(fmt.Sprintf(r.cli.say("第 %d 次重连失败（%s），%s 后重试",
				"reconnect attempt %d failed (%s); retrying in %s"), attempt, reason, retryDelay(delay)))
		}
		return
	}
	w := defaultTermWidth
	if r.termWidth != nil {
		if tw := r.termWidth(); tw > 0 {
			w = tw
		}
	}
	reason, hint := splitHint(reason)
	if reason != l.reason {
		r.info(fitLine(r.cli.say("重连失败：", "reconnect failed: ")+reason, w))
		l.reason = reason
	}
	if hint != "" && hint != l.hint {
		r.info(fitLine(hint, w))
		l.hint = hint
	}
	line := fmt.Sprintf(r.cli.say("%s 后重试（第 %d 次）", "retrying in %s (attempt %d)"), retryDelay(delay), attempt+1)
	r.showLive(style(true, ansiDim, fitLine(line, w)))
}

// fitLine cuts s to fewer columns than a terminal width wide has, so it
// never wraps (a full row may move the cursor to the next), marking a cut
// with "…" when at least one column is left before it; a width of 1 or
// less leaves nothing. Control characters become spaces first (printable:
// an ESC or a newline in a server's reason or the --debug suffix would
// break the line or move the cursor, and takes no column in the count).
// Wide runes count two columns, and one that does not fit whole is left
// out.
func fitLine(s string, width int) string {
	s = printable(s)
	room := width - 1
	switch {
	case room <= 0:
		return ""
	case runewidth.StringWidth(s) <= room:
		return s
	case room < 2:
		return runewidth.Truncate(s, room, "")
	}
	return runewidth.Truncate(s, room, "…")
}

// splitHint splits a friendly text into its reason and its hint, the
// part after the first dash outside brackets ("——" in Chinese, " — " in
// English); hint is "" when there is none.
func splitHint(s string) (reason, hint string) {
	depth := 0
	for i, r := range s {
		switch r {
		case '(', '（':
			depth++
		case ')', '）':
			depth--
		}
		if depth != 0 {
			continue
		}
		for _, sep := range []string{"——", " — "} {
			if strings.HasPrefix(s[i:], sep) {
				return s[:i], strings.TrimSpace(s[i+len(sep):])
			}
		}
	}
	return s, ""
}

// retryDelay is a backoff delay for people: seconds with one decimal
// (161ms → 0.2s, 1.396s → 1.4s), never shorter than 0.1s.
func retryDelay(d time.Duration) string {
	if d < 100*time.Millisecond {
		d = 100 * time.Millisecond
	}
	return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64) + "s"
}

// clear removes the live line, if it is on screen.
func (l *retryLine) clear() { l.r.endLive() }
