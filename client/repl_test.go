package client

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"opsassist/nplt"
)

// runREPL runs the REPL in-process with the given input lines.
func runREPL(t *testing.T, addr, input string, interrupts chan os.Signal) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cli := &CLI{
		Stdin:      strings.NewReader(input),
		Stdout:     &out,
		Stderr:     &errb,
		Getenv:     func(k string) string { return map[string]string{EnvServer: addr}[k] },
		Backoff:    Backoff{Min: time.Microsecond, Max: time.Microsecond},
		Interrupts: interrupts,
	}
	ctx, cancel := testContext(t)
	defer cancel()
	code = cli.Run(ctx, nil)
	return code, out.String(), errb.String()
}

func TestREPLSession(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		if f := fc.expect(nplt.ChatText); string(f.Payload) != "CPU?" {
			fc.fail("chat %q", f.Payload)
		}
		scriptChatReply(fc)
		fc.expect(nplt.SessionList)
		fc.result(KindSessionList, SessionList{Current: fakeSession})
		fc.text("* sess-0001  CPU\n  sess-0002  disk\n")
		fc.end()
		if f := fc.expect(nplt.SessionSwitch); string(f.Payload) != `{"session_id":"sess-0009"}` {
			fc.fail("switch %q", f.Payload)
		}
		fc.error(nplt.CodeNotFound, "no session sess-0009")
		fc.end()
		if f := fc.expect(nplt.ModelSwitch); len(f.Payload) != 0 {
			fc.fail("model %q", f.Payload)
		}
		fc.result(KindModels, ModelList{Current: "m1", Models: []string{"m1", "m2"}})
		fc.end() // no text: the REPL shows the data
		fc.readUntilEOF()
	})
	input := "CPU?\n\n/sessions\n/download tok-1\n/bogus\n/switch\n/switch sess-0009\n/model\n/help\n/quit\nnot sent\n"
	code, stdout, stderr := runREPL(t, s.addr, input, nil)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	golden(t, "repl_stdout", []byte(strings.ReplaceAll(stdout, s.addr, "ADDR")))
	golden(t, "repl_stderr", []byte(stderr))
}

func TestREPLReconnectsAndResumesSession(t *testing.T) {
	s := newFakeServer(t,
		func(fc *fakeConn) {
			fc.handshake()
			fc.expect(nplt.ChatText)
			fc.status(nplt.StatusStreamStart, "", fakeSession)
			fc.text("half an ans")
			// returning drops the connection mid-reply
		},
		func(fc *fakeConn) {
			if h := fc.handshake(); h.SessionID != fakeSession {
				fc.fail("HELLO session_id %q, want %q", h.SessionID, fakeSession)
			}
			if f := fc.expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.fail("chat %q", f.Payload)
			}
			fc.text("answer two")
			fc.end()
			fc.readUntilEOF()
		})
	code, stdout, stderr := runREPL(t, s.addr, "first\nsecond\n", nil)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"half an ans\n", "reconnecting to ", "reconnected · session sess-000", "repeat it if needed", "answer two\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "connection lost: EOF") {
		t.Errorf("stderr lacks the loss:\n%s", stderr)
	}
}

func TestREPLInterruptCancelsRequestOnly(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		fc.text("slow…")
		interrupts <- os.Interrupt // Ctrl-C while the answer streams
		if f := fc.expect(nplt.ChatText); string(f.Payload) != "again" {
			fc.fail("chat %q", f.Payload)
		}
		fc.text(" rest of the first answer")
		fc.end()
		fc.text("second answer")
		fc.end()
		fc.readUntilEOF()
	})
	code, stdout, stderr := runREPL(t, s.addr, "long\nagain\n", interrupts)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stdout, "rest of the first answer") {
		t.Errorf("abandoned reply shown:\n%s", stdout)
	}
	// "slow…" may or may not be shown before the interrupt lands.
	if !strings.Contains(stdout, "cancelled\nsecond answer\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestREPLInitialConnectFails(t *testing.T) {
	code, _, stderr := runREPL(t, "127.0.0.1:1", "hi\n", nil)
	if code != ExitError || !strings.Contains(stderr, "error: client: dial 127.0.0.1:1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
