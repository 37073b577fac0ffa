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
