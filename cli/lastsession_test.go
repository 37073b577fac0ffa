package cli

import (
	"slices"
	"strings"
	"testing"

	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestAskReusesTerminalConversation: ask without --session resumes the
// conversation this terminal used last (the HELLO names it), says so
// with -v; --new, another terminal and --session do not; a remembered
// conversation deleted since gives way to a new one. upload shares it.
func TestAskReusesTerminalConversation(t *testing.T) {
	hellos := make(chan string, 10)
	answer := func(fc *npltfake.Conn) {
		h := fc.Handshake()
		hellos <- h.SessionID
		fc.Expect(nplt.ChatText)
		fc.ChatReply() // the conversation is sess-0002-bbbb
		fc.ReadUntilEOF()
	}
	refused := func(fc *npltfake.Conn) {
		h := fc.ResumeRefused("sess-0003")
		hellos <- "refused " + h.SessionID
		fc.ReadUntilEOF()
	}
	s := npltfake.New(t, answer, answer, answer, answer, answer, refused, answer)
	state := t.TempDir()
	env := map[string]string{EnvServer: s.Addr, "XDG_STATE_HOME": state, "TTY": "/dev/pts/7"}
	other := map[string]string{EnvServer: s.Addr, "XDG_STATE_HOME": state, "TTY": "/dev/pts/8"}
	run := func(env map[string]string, args ...string) string {
		t.Helper()
		code, _, stderr := runCLIEnv(t, env, "", args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return stderr
	}
	run(env, "ask", "q1")
	stderr := run(env, "-v", "ask", "q2")
	run(env, "ask", "--new", "q3")
	run(other, "ask", "q4")
	run(env, "--session", "sess-0042", "ask", "q5")
	for i, want := range []string{"", "sess-0002-bbbb", "", "", "sess-0042"} {
		if got := <-hellos; got != want {
			t.Errorf("ask %d: HELLO session %q, want %q", i+1, got, want)
		}
	}
	if !strings.Contains(stderr, "using this terminal's conversation sess-0002-bbbb") {
		t.Errorf("-v stderr %q", stderr)
	}
	// The remembered conversation is deleted on the server: a new one.
	env["TTY"] = "/dev/pts/9"
	p := (&CLI{Getenv: func(k string) string { return env[k] }}).lastSessionPath(s.Addr)
	(&CLI{Getenv: func(k string) string { return env[k] }}).rememberSession(s.Addr, "sess-gone")
	if p == "" {
		t.Fatal("no state path")
	}
	run(env, "ask", "q6")
	// The refusing script reports after its reply, so the new
	// connection's script may report first: compare them as a set.
	got := []string{<-hellos, <-hellos}
	slices.Sort(got)
	if want := []string{"", "refused sess-gone"}; !slices.Equal(got, want) {
		t.Errorf("deleted conversation: HELLO sessions %q, want %q (the remembered one refused, then a new one)", got, want)
	}
}

// TestTerminalKeyUsesTheSession: a tty name reused by a new terminal
// session (another session leader or start time) keys another
// conversation; the same session keeps its own; without a session the
// tty name alone keys it, as before.
func TestTerminalKeyUsesTheSession(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state, "TTY": "/dev/pts/7"}
	path := func(sess string) string {
		c := &CLI{Getenv: func(k string) string { return env[k] }, TerminalSession: func() string { return sess }}
		return c.lastSessionPath("127.0.0.1:9999")
	}
	old, again, reused, none := path("4242@1000"), path("4242@1000"), path("4242@9000"), path("")
	if old != again {
		t.Errorf("the same session keyed two files: %s, %s", old, again)
	}
	if old == reused || old == path("5151@1000") {
		t.Errorf("a new terminal on the same tty shares the old one's file %s", old)
	}
	if none == old {
		t.Errorf("without a session the key should be the tty alone")
	}
	c := &CLI{Getenv: func(k string) string { return env[k] }, TerminalSession: func() string { return "4242@1000" }}
	c.rememberSession("127.0.0.1:9999", "sess-old")
	n := &CLI{Getenv: func(k string) string { return env[k] }, TerminalSession: func() string { return "4242@9000" }}
	if got := n.lastSession("127.0.0.1:9999"); got != "" {
		t.Errorf("new terminal resumes %q", got)
	}
	if got := c.lastSession("127.0.0.1:9999"); got != "sess-old" {
		t.Errorf("same terminal resumes %q", got)
	}
}

// TestSessionStart reads field 22 of /proc/PID/stat, with a command
// name holding spaces and parentheses.
func TestSessionStart(t *testing.T) {
	stat := "4242 (my (odd) sh) S 1 4242 4242 34816 4242 4194560 1 2 3 4 5 6 7 8 20 0 1 0 987654 1000 10 18446744073709551615"
	if got := sessionStart(stat); got != "987654" {
		t.Errorf("sessionStart = %q, want 987654", got)
	}
	if got := sessionStart("garbage"); got != "" {
		t.Errorf("sessionStart(garbage) = %q", got)
	}
}
