package cli

import (
	"bytes"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestREPLSwitchAmbiguous: a prefix several conversations share is
// answered with the list of matches, not "not found".
func TestREPLSwitchAmbiguous(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionSwitch)
		fc.Error(api.CodeNotFound, "conversation not found: b")
		fc.End()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: "b0a1", Title: "disk"}, {SessionID: "a77", Title: "cpu"}, {SessionID: "b9c2"}}})
		fc.End()
		fc.ReadUntilEOF()
	})
	out := executeREPL(t, s, "/switch b")
	want := "2 conversations start with \"b\"; give more of the id:\n  b0a1  disk\n  b9c2  (untitled)\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to end with:\n%s", out.String(), want)
	}
}

// TestREPLDestructiveCommandsAsk: on a terminal, /delete and /clear
// send nothing unless the answer is yes; without asking (not a
// terminal, or --yes) they run at once.
func TestREPLDestructiveCommandsAsk(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		// Each asked /delete lists the conversations first; only the
		// confirmed /delete and the unasked /clear arrive.
		for range 2 {
			fc.Expect(nplt.SessionList)
			fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
				{SessionID: "sess-1", Title: "disk"}, {SessionID: "sess-2"}}})
			fc.End()
		}
		if f := fc.Expect(nplt.SessionDelete); string(f.Payload) != `{"session_id":"sess-2"}` {
			fc.Fail("delete %q", f.Payload)
		}
		fc.Text("deleted")
		fc.End()
		fc.Expect(nplt.ClearRequest)
		fc.Text("cleared")
		fc.End()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	r.askConfirm = true
	r.lines = newStreamReader(strings.NewReader("n\n\ny\n"))
	t.Cleanup(func() { r.lines.close() })
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/delete sess-1") // n
	r.execute(ctx, "/clear")         // empty answer: no
	r.execute(ctx, "/delete sess-2") // y
	r.askConfirm = false             // --yes, or input not a terminal
	r.execute(ctx, "/clear")
	got := out.String()
	if n := strings.Count(got, "not done"); n != 2 {
		t.Errorf("%d refusals, want 2:\n%s", n, got)
	}
	for _, want := range []string{"delete conversation sess-1 \"disk\" and all its messages? [y/N]", "deleted\n", "cleared\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestREPLDeleteSeveral: /delete A B asks once for both, then deletes
// each in order; an unknown one is reported and the next still runs.
func TestREPLDeleteSeveral(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: "sess-1", Title: "disk"}, {SessionID: "sess-2", Title: "cpu"}}})
		fc.End()
		for _, id := range []string{"sess-1", "sess-x", "sess-2"} {
			if f := fc.Expect(nplt.SessionDelete); string(f.Payload) != `{"session_id":"`+id+`"}` {
				fc.Fail("delete %q", f.Payload)
			}
			if id == "sess-x" {
				fc.Error(api.CodeNotFound, "conversation not found: sess-x")
				fc.End()
				fc.Expect(nplt.SessionList) // looking for an ambiguous prefix
				fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session})
				fc.End()
				continue
			}
			fc.Text("deleted " + id)
			fc.End()
		}
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	r.askConfirm = true
	r.lines = newStreamReader(strings.NewReader("y\n"))
	t.Cleanup(func() { r.lines.close() })
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/delete sess-1  sess-x sess-2")
	got := out.String()
	if n := strings.Count(got, "[y/N]"); n != 1 {
		t.Errorf("asked %d times:\n%s", n, got)
	}
	for _, want := range []string{"delete 3 conversations (sess-1 \"disk\", sess-x, sess-2 \"cpu\") and all their messages? [y/N]", "deleted sess-1\n", "conversation not found: sess-x", "deleted sess-2\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestREPLSwitchShortPrefix: a prefix shorter than the server accepts
// (4 characters) that only one conversation has switches to it.
func TestREPLSwitchShortPrefix(t *testing.T) {
	const full = "7e469b6b-0000-4000-8000-000000000001"
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionSwitch)
		fc.Error(api.CodeNotFound, `conversation not found: "7e4"`)
		fc.End()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: full, Title: "disk"}, {SessionID: "7f00", Title: "cpu"}}})
		fc.End()
		if f := fc.Expect(nplt.SessionSwitch); string(f.Payload) != `{"session_id":"`+full+`"}` {
			fc.Fail("second switch %q", f.Payload)
		}
		fc.Result(client.KindSession, client.SessionInfo{SessionID: full, Title: "disk"})
		fc.End()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/switch 7e4")
	if strings.Contains(out.String(), "not found") || r.conn.SessionID() != full {
		t.Errorf("session %q, output:\n%s", r.conn.SessionID(), out.String())
	}
}

// TestREPLDeleteResolvesFirst: /delete resolves its prefixes before it
// asks: an ambiguous one lists the matches and asks nothing; a unique
// one is asked about by its full id and title, then deleted by full id.
func TestREPLDeleteResolvesFirst(t *testing.T) {
	list := client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
		{SessionID: "c0a1", Title: "disk"}, {SessionID: "c9c2", Title: "memory"}, {SessionID: "c777", Title: "cpu"},
		{SessionID: "feaaab66-1", Title: "logs"}}}
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList) // /delete c: ambiguous, no question, no delete
		fc.Result(client.KindSessionList, list)
		fc.End()
		fc.Expect(nplt.SessionList) // /delete fea
		fc.Result(client.KindSessionList, list)
		fc.End()
		if f := fc.Expect(nplt.SessionDelete); string(f.Payload) != `{"session_id":"feaaab66-1"}` {
			fc.Fail("delete %q", f.Payload)
		}
		fc.Text("deleted")
		fc.End()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	r.askConfirm = true
	r.lines = newStreamReader(strings.NewReader("y\n"))
	t.Cleanup(func() { r.lines.close() })
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/delete c")
	got := out.String()
	if strings.Contains(got, "[y/N]") || !strings.Contains(got, `3 conversations start with "c"`) || strings.Contains(got, "error") {
		t.Fatalf("ambiguous /delete c:\n%s", got)
	}
	r.execute(ctx, "/delete fea")
	got = out.String()
	for _, want := range []string{`delete conversation feaaab66-1 "logs" and all its messages? [y/N]`, "deleted\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestREPLSwitchNotFoundHint: /switch to an id no conversation has says
// where to find the ids, in the CLI's language.
func TestREPLSwitchNotFoundHint(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionSwitch)
		fc.Error(api.CodeNotFound, "conversation not found: zzzz")
		fc.End()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{{SessionID: "b0a1"}}})
		fc.End()
		fc.ReadUntilEOF()
	})
	out := executeREPL(t, s, "/switch zzzz")
	if got := out.String(); !strings.Contains(got, "zzzz (/sessions lists yours)\n") {
		t.Errorf("output:\n%s", got)
	}
}
