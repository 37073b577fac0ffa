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

// runREPL runs the REPL in-process with the given input lines.
func runREPL(t *testing.T, addr, input string, interrupts chan os.Signal) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cli := &CLI{
		Stdin:      strings.NewReader(input),
		Stdout:     &out,
		Stderr:     &errb,
		Getenv:     func(k string) string { return map[string]string{EnvServer: addr, EnvDownload: "ask"}[k] },
		Backoff:    client.Backoff{Min: time.Microsecond, Max: time.Microsecond},
		Interrupts: interrupts,
	}
	ctx, cancel := testContext(t)
	defer cancel()
	code = cli.Run(ctx, nil)
	return code, out.String(), errb.String()
}

func TestREPLSession(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "CPU?" {
			fc.Fail("chat %q", f.Payload)
		}
		fc.ChatReply()
		fc.Expect(nplt.SessionList)
		// The REPL renders the data in its language, not the server's
		// bilingual text (issue 15).
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: npltfake.Session, Title: "CPU", Messages: 2}, {SessionID: "sess-0002-bbbb", Title: "disk", Uploads: 1}}})
		fc.Text("=== 会话列表 Sessions ===\n1. [sess-000] CPU (当前 current)\n")
		fc.End()
		if f := fc.Expect(nplt.SessionSwitch); string(f.Payload) != `{"session_id":"sess-0009"}` {
			fc.Fail("switch %q", f.Payload)
		}
		fc.Error(api.CodeNotFound, "no session sess-0009")
		fc.End()
		// The REPL looks for conversations the id is a prefix of.
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session})
		fc.End()
		if f := fc.Expect(nplt.ModelSwitch); len(f.Payload) != 0 {
			fc.Fail("model %q", f.Payload)
		}
		fc.Result(client.KindModels, client.ModelList{Current: "m1", Models: []string{"m1", "m2"}})
		fc.End() // no text: the REPL shows the data
		fc.ReadUntilEOF()
	})
	input := "CPU?\n\n/sessions\n/download tok-1\n/bogus\n/switch\n/switch sess-0009\n/model\n/help\n/quit\nnot sent\n"
	code, stdout, stderr := runREPL(t, s.Addr, input, nil)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	golden(t, "repl_stdout", []byte(strings.ReplaceAll(stdout, s.Addr, "ADDR")))
	golden(t, "repl_stderr", []byte(stderr))
}

func TestREPLReconnectsAndResumesSession(t *testing.T) {
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.Text("half an ans")
			// returning drops the connection mid-reply
		},
		func(fc *npltfake.Conn) {
			if h := fc.Handshake(); h.SessionID != npltfake.Session {
				fc.Fail("HELLO session_id %q, want %q", h.SessionID, npltfake.Session)
			}
			if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.Fail("chat %q", f.Payload)
			}
			fc.Text("answer two")
			fc.End()
			fc.ReadUntilEOF()
		})
	code, stdout, stderr := runREPL(t, s.Addr, "first\nsecond\n", nil)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"half an ans\n", "reconnecting to ", "reconnected · conversation sess-000", "repeat it if needed", "answer two\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "lost the connection to the server at "+s.Addr+" (EOF)") {
		t.Errorf("stderr lacks the loss:\n%s", stderr)
	}
}

// TestREPLInterruptCancelsRequestOnly: with a server that cannot cancel
// a turn (no cancel feature), Ctrl-C stops showing the answer at once.
func TestREPLInterruptCancelsRequestOnly(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Greet()
		fc.ExpectJSON(nplt.Hello, new(nplt.HelloPayload))
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "old", SessionID: npltfake.Session})
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("slow…")
		interrupts <- os.Interrupt // Ctrl-C while the answer streams
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
	// "slow…" may or may not be shown before the interrupt lands.
	if !strings.Contains(stdout, "cancelled\nsecond answer\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestREPLInitialConnectFails(t *testing.T) {
	code, _, stderr := runREPL(t, "127.0.0.1:1", "hi\n", nil)
	if code != ExitError || !strings.Contains(stderr, "error: the opsassist server is not running at 127.0.0.1:1 (connection refused)") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestREPLStartsNewSessionWhenResumeFails: after a restart that lost the
// conversation, one refused resume is enough to start a new one.
func TestREPLStartsNewSessionWhenResumeFails(t *testing.T) {
	const newSession = "new-conv-3333"
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			// returning drops the connection: the server restarts
		},
		func(fc *npltfake.Conn) {
			if h := fc.ResumeRefused("unused-2222"); h.SessionID != npltfake.Session {
				fc.Fail("HELLO session_id %q, want %q", h.SessionID, npltfake.Session)
			}
			fc.ExpectClose()
		},
		func(fc *npltfake.Conn) {
			fc.Greet()
			var h nplt.HelloPayload
			fc.ExpectJSON(nplt.Hello, &h)
			if h.SessionID != "" {
				fc.Fail("HELLO session_id %q, want none", h.SessionID)
			}
			fc.HelloReply(newSession)
			if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.Fail("chat %q", f.Payload)
			}
			fc.Text("answer two")
			fc.End()
			fc.ReadUntilEOF()
		})
	code, stdout, stderr := runREPL(t, s.Addr, "first\nsecond\n", nil)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "conversation sess-000 not found; starting a new one\n"); n != 1 {
		t.Errorf("told the user %d times, want once:\n%s", n, stdout)
	}
	if strings.Contains(stdout, "reconnect attempt") {
		t.Errorf("retried the unknown session:\n%s", stdout)
	}
	if !strings.Contains(stdout, "reconnected · conversation new-conv\n") || !strings.HasSuffix(stdout, "answer two\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestREPLSessionFlag(t *testing.T) {
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.ResumeRefused("unused-2222")
			fc.ExpectClose()
		},
		func(fc *npltfake.Conn) {
			if h := fc.Handshake(); h.SessionID != "" {
				fc.Fail("HELLO session_id %q, want none", h.SessionID)
			}
			fc.ReadUntilEOF()
		},
		func(fc *npltfake.Conn) {
			if h := fc.Handshake(); h.SessionID != "sess-0001" {
				fc.Fail("HELLO session_id %q, want sess-0001", h.SessionID)
			}
			fc.ReadUntilEOF()
		})
	code, stdout, stderr := runCLI(t, s.Addr, "/quit\n", "--session", "sess-gone")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "conversation sess-gon not found; starting a new one\n") ||
		!strings.Contains(stdout, "· conversation sess-000 ·") {
		t.Errorf("unknown session:\n%s", stdout)
	}

	code, stdout, stderr = runCLIEnv(t, map[string]string{EnvServer: s.Addr, EnvSession: "sess-0001"}, "/quit\n")
	if code != ExitOK || strings.Contains(stdout, "not found") {
		t.Errorf("known session: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// newTestREPL returns a REPL connected to s whose output, errors
// included, goes to out in order.
// executeREPL runs the REPL commands cmds one after another against s and
// returns what they printed.
func executeREPL(t *testing.T, s *npltfake.Server, cmds ...string) *bytes.Buffer {
	t.Helper()
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	for _, c := range cmds {
		r.execute(ctx, c)
	}
	return &out
}

func newTestREPL(t *testing.T, s *npltfake.Server, out *bytes.Buffer) *repl {
	t.Helper()
	cli := &CLI{
		Stdout:  out,
		Stderr:  out,
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond},
	}
	r := cli.newREPL(cliConfig{server: s.Addr}, nil)
	ctx, cancel := testContext(t)
	defer cancel()
	if err := r.connect(ctx, r.opts, client.Dial); err != nil {
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
	secondConn := func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
			fc.Fail("chat %q", f.Payload)
		}
		fc.Text("answer two")
		fc.End()
		fc.ReadUntilEOF()
	}
	// noticeSeen returns once the client's reader has passed the notice:
	// it answers the PING sent after it.
	noticeSeen := func(fc *npltfake.Conn) {
		fc.Send(nplt.Ping, []byte("sync"))
		fc.Expect(nplt.Pong)
	}

	t.Run("connection ended between requests", func(t *testing.T) {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Error(api.CodeShuttingDown, "server is shutting down")
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
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Error(api.CodeShuttingDown, "server is shutting down")
			noticeSeen(fc)
			close(queued)
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.Text("half")
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
	// A shutdown is no error of the user's: an info line.
	notice := strings.Index(out, " is shutting down\n")
	reconnecting := strings.Index(out, "reconnecting to ")
	answer := strings.Index(out, "answer two\n")
	if notice < 0 || reconnecting < 0 || answer < 0 || notice > reconnecting || strings.Count(out, "shutting down") != 1 ||
		strings.Contains(out, "error") {
		t.Errorf("want the notice once, before reconnecting and the answer:\n%s", out)
	}
}

// TestREPLUnusedSessionLostQuietly: a conversation the user never asked
// in is not saved, so a restart loses it by design; the walk-through was
// told "conversation … not found; starting a new one" about it. The
// REPL starts a new one without saying so.
func TestREPLUnusedSessionLostQuietly(t *testing.T) {
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			// returning drops the connection: the server restarts
		},
		func(fc *npltfake.Conn) {
			fc.ResumeRefused("unused-2222")
			fc.ExpectClose()
		},
		func(fc *npltfake.Conn) {
			if h := fc.Handshake(); h.SessionID != "" {
				fc.Fail("HELLO session_id %q, want none", h.SessionID)
			}
			if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.Fail("chat %q", f.Payload)
			}
			fc.Text("answer two")
			fc.End()
			fc.ReadUntilEOF()
		})
	// The question is asked once the REPL has seen the connection end
	// (as a user types after a restart): asked before, it would go to the
	// lost conversation, which would then have been used.
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	<-r.conn.Done()
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "second")
	if got := out.String(); strings.Contains(got, "not found") || !strings.HasSuffix(got, "answer two\n") {
		t.Errorf("output:\n%s", got)
	}
}
