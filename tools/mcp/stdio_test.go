//go:build unix

package mcp

import (
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"opsassist/tools"
)

// TestStdioChildExitWithGrandchildFailsCallAtOnce: a stdio server dies
// mid-call while a process it started keeps its stdout open (no end of
// file): the call fails with the child's exit, not at call_timeout (an
// hour), and the server is restarted with the backoff.
func TestStdioChildExitWithGrandchildFailsCallAtOnce(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	sc := childServer(t, "g", "grandchild")
	sc.CallTimeout = time.Hour
	m, err := New(Config{Servers: []ServerConfig{sc}, Registry: reg, Backoff: fastBackoff(),
		Jitter: func() float64 { return 0.5 }, HealthInterval: time.Hour, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(t.Context())
	ch.waitFor(t, "ready", func(st ServerStatus) bool { return st.State == StateReady })

	done := make(chan tools.Outcome, 1)
	go func() { done <- run(reg, "mcp__g__die", `{}`) }()
	guard := time.NewTimer(time.Minute) // a guard, not a synchronisation
	defer guard.Stop()
	var o tools.Outcome
	select {
	case o = <-done:
	case <-guard.C:
		t.Fatal("the call on a dead child is still waiting")
	}
	if o.Result.Success {
		t.Fatalf("die: %s", o.ForModel)
	}
	mustContain(t, "die", o.Result.Error, "connection to the server lost during the call", "the stdio server exited (exit status 3)", "may or may not have run")
	if strings.Contains(o.Result.Error, "deadline") || strings.Contains(o.Result.Error, "timeout") {
		t.Fatalf("a timeout, not the exit: %s", o.Result.Error)
	}
	st := ch.waitFor(t, "unavailable", func(st ServerStatus) bool { return st.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "session ended", "the stdio server exited", "next attempt in")
	ch.waitFor(t, "back", func(st ServerStatus) bool { return st.State == StateReady && st.Restarts == 1 })
	if o := run(reg, "mcp__g__echo", `{"text":"again"}`); !o.Result.Success {
		t.Fatalf("after the restart: %s", o.ForModel)
	}
}

// TestChildOutputReadBeforeExit: what a child wrote to stdout and
// stderr before it exited is read, then its stdout ends with its exit
// status and its stderr copy ends, though a process it started keeps
// both pipes open.
func TestChildOutputReadBeforeExit(t *testing.T) {
	sc := childServer(t, "w", "write-exit")
	var stderr tail
	tr, cmd := newTransport(sc, &stderr, nil)
	c, err := startChild(cmd, tr.(*stdioTransport).terminate)
	if err != nil {
		t.Fatal(err)
	}
	defer killProcessGroup(cmd.Process)
	defer c.Close()
	b, err := io.ReadAll(&exitReader{f: c.stdout, c: c, end: c.exitError})
	if string(b) != strings.Repeat("out\n", 1000) || !errors.Is(err, ErrChildExited) || !strings.Contains(err.Error(), "exit status 4") {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	c.Close()
	if got := stderr.lastLine(); got != "last words" {
		t.Fatalf("stderr: %q", got)
	}
}

// TestPlainExitEndsWithStatus: a child that exits plainly closes its
// stdout before it is reaped; its stdout still ends with its exit
// status (ErrChildExited), never a bare end of file, every time.
func TestPlainExitEndsWithStatus(t *testing.T) {
	for i := range 20 {
		cmd := exec.Command("sh", "-c", "echo hi; exit 3")
		// The terminate wait bounds the wait for the exit: a guard.
		c, err := startChild(cmd, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(&exitReader{f: c.stdout, c: c, end: c.exitError})
		c.Close()
		if string(b) != "hi\n" || !errors.Is(err, ErrChildExited) || !strings.Contains(err.Error(), "exit status 3") {
			t.Fatalf("run %d: read %q, %v", i, b, err)
		}
	}
}

// TestClosedStdoutLivingChildEndsWithEOF: a child that closes its
// stdout and lives on ends its stdout with io.EOF once the terminate
// wait has passed; the wait is bounded.
func TestClosedStdoutLivingChildEndsWithEOF(t *testing.T) {
	cmd := exec.Command("sh", "-c", "echo hi; exec >&-; exec sleep 60")
	c, err := startChild(cmd, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := io.ReadAll(&exitReader{f: c.stdout, c: c, end: c.exitError})
	if string(b) != "hi\n" || err != nil { // ReadAll's nil is io.EOF
		t.Fatalf("read %q, %v", b, err)
	}
}
