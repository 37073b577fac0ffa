//go:build unix

package cli

import (
	"os"
	"syscall"
)

// redraw makes liner draw its prompt and the line typed so far again on
// the cursor's row: liner redraws on a window change, which it learns
// from SIGWINCH, and has no other way to be asked.
func (l *linerReader) redraw() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Signal(syscall.SIGWINCH) //nolint:errcheck // a missed redraw leaves the prompt undrawn only
	}
}

// redraws reports whether redraw redraws the prompt and the typed text.
func (l *linerReader) redraws() bool { return true }
