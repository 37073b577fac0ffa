//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"opsassist/internal/npltfake"
)

// TestLinerRedrawSignals: redraw asks liner for a redraw the one way it
// listens for: SIGWINCH to this process.
func TestLinerRedrawSignals(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	defer signal.Stop(ch)
	l := &linerReader{}
	if !l.redraws() {
		t.Fatal("redraws() = false on Unix")
	}
	l.redraw()
	select {
	case <-ch:
	case <-time.After(npltfake.Timeout):
		t.Fatal("no SIGWINCH")
	}
}
