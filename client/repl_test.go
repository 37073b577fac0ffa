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
		Getenv:     func(k string) string { return map[string]string{EnvServer: addr, EnvDownload: "ask"}[k] },
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

// TestREPLStartsNewSessionWhenResumeFails: after a restart that lost the
// conversation, one refused resume is enough to start a new one.
func TestREPLStartsNewSessionWhenResumeFails(t *testing.T) {
	const newSession = "new-conv-3333"
	s := newFakeServer(t,
		func(fc *fakeConn) {
			fc.handshake()
			fc.expect(nplt.ChatText)
			fc.status(nplt.StatusStreamStart, "", fakeSession)
			// returning drops the connection: the server restarts
		},
		func(fc *fakeConn) {
			if h := fc.resumeRefused("unused-2222"); h.SessionID != fakeSession {
				fc.fail("HELLO session_id %q, want %q", h.SessionID, fakeSession)
			}
			fc.expectClose()
		},
		func(fc *fakeConn) {
			fc.greet()
			var h nplt.HelloPayload
			fc.expectJSON(nplt.Hello, &h)
			if h.SessionID != "" {
				fc.fail("HELLO session_id %q, want none", h.SessionID)
			}
			fc.helloReply(newSession)
			if f := fc.expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.fail("chat %q", f.Payload)
			}
			fc.text("answer two")
			fc.end()
			fc.readUntilEOF()
		})
	code, stdout, stderr := runREPL(t, s.addr, "first\nsecond\n", nil)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "session sess-000 not found; starting a new conversation\n"); n != 1 {
		t.Errorf("told the user %d times, want once:\n%s", n, stdout)
	}
	if strings.Contains(stdout, "reconnect attempt") {
		t.Errorf("retried the unknown session:\n%s", stdout)
	}
	if !strings.Contains(stdout, "reconnected · session new-conv\n") || !strings.HasSuffix(stdout, "answer two\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestREPLSessionFlag(t *testing.T) {
	s := newFakeServer(t,
		func(fc *fakeConn) {
			fc.resumeRefused("unused-2222")
			fc.expectClose()
		},
		func(fc *fakeConn) {
			if h := fc.handshake(); h.SessionID != "" {
				fc.fail("HELLO session_id %q, want none", h.SessionID)
			}
			fc.readUntilEOF()
		},
		func(fc *fakeConn) {
			if h := fc.handshake(); h.SessionID != "sess-0001" {
				fc.fail("HELLO session_id %q, want sess-0001", h.SessionID)
			}
			fc.readUntilEOF()
		})
	code, stdout, stderr := runCLI(t, s.addr, "/quit\n", "--session", "sess-gone")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "session sess-gon not found; starting a new conversation\n") ||
		!strings.Contains(stdout, "· session sess-000 ·") {
		t.Errorf("unknown session:\n%s", stdout)
	}

	code, stdout, stderr = runCLIEnv(t, map[string]string{EnvServer: s.addr, EnvSession: "sess-0001"}, "/quit\n")
	if code != ExitOK || strings.Contains(stdout, "not found") {
		t.Errorf("known session: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// newTestREPL returns a REPL connected to s whose output, errors
// included, goes to out in order.
func newTestREPL(t *testing.T, s *fakeServer, out *bytes.Buffer) *repl {
	t.Helper()
	cli := &CLI{
		Stdout:  out,
		Stderr:  out,
		Backoff: Backoff{Min: time.Microsecond, Max: time.Microsecond},
	}
	r := cli.newREPL(cliConfig{server: s.addr}, nil)
	ctx, cancel := testContext(t)
	defer cancel()
	if err := r.connect(ctx, r.opts, Dial); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if r.conn != nil {
			r.conn.Close()
		}
	})
	return r
}

// TestREPLOldNoticesBeforeReconnect checks that what a dead connection
// said last is shown before the REPL reconnects, never after the next
// answer.
func TestREPLOldNoticesBeforeReconnect(t *testing.T) {
	secondConn := func(fc *fakeConn) {
		fc.handshake()
		if f := fc.expect(nplt.ChatText); string(f.Payload) != "second" {
			fc.fail("chat %q", f.Payload)
		}
		fc.text("answer two")
		fc.end()
		fc.readUntilEOF()
	}
	// noticeSeen returns once the client's reader has passed the notice:
	// it answers the PING sent after it.
	noticeSeen := func(fc *fakeConn) {
		fc.send(nplt.Ping, []byte("sync"))
		fc.expect(nplt.Pong)
	}

	t.Run("connection ended between requests", func(t *testing.T) {
		s := newFakeServer(t, func(fc *fakeConn) {
			fc.handshake()
			fc.error(nplt.CodeShuttingDown, "server is shutting down")
			// returning closes the connection
		}, secondConn)
		var out bytes.Buffer
		r := newTestREPL(t, s, &out)
		<-r.conn.Done()
		ctx, cancel := testContext(t)
		defer cancel()
		r.execute(ctx, "second")
		r.flushNotices() // the next prompt
		checkNoticeOrder(t, out.String())
	})

	t.Run("connection ended during a request", func(t *testing.T) {
		queued := make(chan struct{})
		s := newFakeServer(t, func(fc *fakeConn) {
			fc.handshake()
			fc.error(nplt.CodeShuttingDown, "server is shutting down")
			noticeSeen(fc)
			close(queued)
			fc.expect(nplt.ChatText)
			fc.status(nplt.StatusStreamStart, "", fakeSession)
			fc.text("half")
			// returning drops the connection mid-reply
		}, secondConn)
		var out bytes.Buffer
		r := newTestREPL(t, s, &out)
		<-queued
		ctx, cancel := testContext(t)
		defer cancel()
		r.execute(ctx, "first")
		r.execute(ctx, "second")
		r.flushNotices()
		checkNoticeOrder(t, out.String())
	})
}

// checkNoticeOrder checks that the shutting_down notice appears once,
// before the REPL reconnects.
func checkNoticeOrder(t *testing.T, out string) {
	t.Helper()
	notice := strings.Index(out, "server error [shutting_down]")
	reconnecting := strings.Index(out, "reconnecting to ")
	answer := strings.Index(out, "answer two\n")
	if notice < 0 || reconnecting < 0 || answer < 0 || notice > reconnecting || strings.Count(out, "shutting_down") != 1 {
		t.Errorf("want the notice once, before reconnecting and the answer:\n%s", out)
	}
}
