package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestREPLInterruptSendsCancel: Ctrl-C while the answer streams sends
// CANCEL; the server ends the answer, the REPL says "cancelled" and the
// next question goes out on the same connection.
func TestREPLInterruptSendsCancel(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("slow…")
		interrupts <- os.Interrupt // Ctrl-C while the answer streams
		if f := fc.Expect(nplt.Cancel); len(f.Payload) != 0 {
			fc.Fail("CANCEL payload %q", f.Payload)
		}
		fc.End() // the server stopped the turn
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "again" {
			fc.Fail("chat %q", f.Payload)
		}
		fc.Text("second answer")
		fc.End()
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runREPL(t, s.Addr, "long\nagain\n", interrupts)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "cancelled\nsecond answer\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestREPLSecondInterruptStopsWaiting: when the server does not end the
// cancelled answer, a second Ctrl-C stops waiting for it.
func TestREPLSecondInterruptStopsWaiting(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("slow…")
		interrupts <- os.Interrupt
		fc.Expect(nplt.Cancel)
		interrupts <- os.Interrupt // the answer goes on; Ctrl-C again
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "again" {
			fc.Fail("chat %q", f.Payload)
		}
		fc.Text(" rest of the first answer")
		fc.End()
		fc.Text("second answer")
		fc.End()
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runREPL(t, s.Addr, "long\nagain\n", interrupts)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stdout, "rest of the first answer") {
		t.Errorf("abandoned reply shown:\n%s", stdout)
	}
	if !strings.Contains(stdout, "cancelled\nsecond answer\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestAskInterruptSendsCancel: in ask, Ctrl-C during the answer sends
// CANCEL, waits for the end, says so and exits with an error; when the
// server never ends the answer, the wait (CancelWait) runs out.
func TestAskInterruptSendsCancel(t *testing.T) {
	for _, serverEnds := range []bool{true, false} {
		interrupts := make(chan os.Signal, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.Text("partial")
			interrupts <- os.Interrupt
			fc.Expect(nplt.Cancel)
			if serverEnds {
				fc.End()
			}
			fc.ReadUntilEOF()
		})
		var out, errb bytes.Buffer
		cli := &CLI{
			Stdout:     &out,
			Stderr:     &errb,
			Getenv:     func(k string) string { return map[string]string{EnvServer: s.Addr}[k] },
			Backoff:    client.Backoff{Min: time.Microsecond, Max: time.Microsecond},
			Interrupts: interrupts,
			CancelWait: time.Nanosecond, // with serverEnds the end is already on its way or not; either way the wait is short
		}
		if serverEnds {
			cli.CancelWait = npltfake.Timeout
		}
		ctx, cancel := testContext(t)
		code := cli.Run(ctx, []string{"ask", "long"})
		cancel()
		if code != ExitError || serverEnds && !strings.Contains(out.String(), "partial") {
			t.Fatalf("server ends %v: exit %d, stdout %q, stderr %q", serverEnds, code, out.String(), errb.String())
		}
		if serverEnds && !strings.Contains(errb.String(), "opsassist: cancelled") {
			t.Errorf("stderr %q", errb.String())
		}
	}
}
