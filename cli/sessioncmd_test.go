package cli

import (
	"bytes"
	"fmt"
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
// each in order; an unknown one is reported before the question, and
// not asked about (issue 15: it was asked about, then "not found").
func TestREPLDeleteSeveral(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: "sess-1", Title: "disk"}, {SessionID: "sess-2", Title: "cpu"}}})
		fc.End()
		for _, id := range []string{"sess-1", "sess-2"} {
			if f := fc.Expect(nplt.SessionDelete); string(f.Payload) != `{"session_id":"`+id+`"}` {
				fc.Fail("delete %q", f.Payload)
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
	for _, want := range []string{"conversation not found: sess-x", "delete 2 conversations (sess-1 \"disk\", sess-2 \"cpu\") and all their messages? [y/N]", "deleted sess-1\n", "deleted sess-2\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "not found: sess-x") > strings.Index(got, "[y/N]") {
		t.Errorf("the unknown id was reported after the question:\n%s", got)
	}
}

// TestREPLDeleteUnknownAsksNothing: /delete zzzz, no such conversation,
// asked "删除对话 zzzz 及其全部消息？ [y/N]" and only then said not found;
// it says not found and asks nothing, deletes nothing.
func TestREPLDeleteUnknownAsksNothing(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{{SessionID: "sess-1", Title: "disk"}}})
		fc.End()
		for f, ok := fc.Next(); ok; f, ok = fc.Next() {
			if f.Type == nplt.SessionDelete {
				fc.Fail("/delete zzzz deleted %q", f.Payload)
			}
		}
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	r.askConfirm = true
	r.lines = newStreamReader(strings.NewReader("y\n"))
	t.Cleanup(func() { r.lines.close() })
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/delete zzzz")
	got := out.String()
	if strings.Contains(got, "[y/N]") || !strings.Contains(got, "conversation not found: zzzz") {
		t.Errorf("output:\n%s", got)
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
		{SessionID: "c0a1-aa", Title: "disk"}, {SessionID: "c0a1-bb", Title: "memory"}, {SessionID: "c0a1-cc", Title: "cpu"},
		{SessionID: "feaaab66-1", Title: "logs"}}}
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList) // /delete c0a1: ambiguous, no question, no delete
		fc.Result(client.KindSessionList, list)
		fc.End()
		fc.Expect(nplt.SessionList) // /delete feaa
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
	r.execute(ctx, "/delete c0a1")
	got := out.String()
	if strings.Contains(got, "[y/N]") || !strings.Contains(got, `3 conversations start with "c0a1"`) || strings.Contains(got, "error") {
		t.Fatalf("ambiguous /delete c0a1:\n%s", got)
	}
	r.execute(ctx, "/delete feaa")
	got = out.String()
	for _, want := range []string{`delete conversation feaaab66-1 "logs" and all its messages? [y/N]`, "deleted\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestREPLDeleteShortPrefix: /delete with fewer than 4 characters of an
// id deletes nothing, not even the one conversation that has them: it
// says to give at least 4, in the CLI's language, and lists the
// matches; with or without asking first.
func TestREPLDeleteShortPrefix(t *testing.T) {
	list := client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{{SessionID: "feaaab66-1", Title: "logs"}}}
	for lang, want := range map[string]string{
		"":            "\"fea\" is too short: give at least 4 characters of the id; conversations starting with it:\n  feaaab66-1  logs\n",
		"zh_CN.UTF-8": "\"fea\" 太短：请至少给出 id 的 4 个字符；以它开头的对话：\n  feaaab66-1  logs\n",
	} {
		for _, ask := range []bool{false, true} {
			s := npltfake.New(t, func(fc *npltfake.Conn) {
				fc.Handshake()
				fc.Expect(nplt.SessionList)
				fc.Result(client.KindSessionList, list)
				fc.End()
				fc.ReadUntilEOF() // no SESSION_DELETE
			})
			var out bytes.Buffer
			r := newTestREPL(t, s, &out)
			r.cli.Getenv = localeCLI(lang).Getenv
			r.askConfirm = ask
			ctx, cancel := testContext(t)
			r.execute(ctx, "/delete fea")
			cancel()
			if got := out.String(); !strings.HasSuffix(got, want) || strings.Contains(got, "[y/N]") {
				t.Errorf("%q, asking %v:\n%s\nwant it to end with\n%s", lang, ask, got, want)
			}
		}
	}
}

// TestREPLDeleteManyMatches: a prefix more conversations share than the
// answer lists says how many more there are; the conversations are
// found over every page of the list, not only the first.
func TestREPLDeleteManyMatches(t *testing.T) {
	var all []client.SessionInfo
	for i := range 13 {
		all = append(all, client.SessionInfo{SessionID: fmt.Sprintf("abcd-%02d", i)})
	}
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList) // the first page: 5 of them
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: all[:5], Next: "p2"})
		fc.End()
		f := fc.Expect(nplt.SessionList)
		if !strings.Contains(string(f.Payload), `"before":"p2"`) {
			fc.Fail("second page %q", f.Payload)
		}
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: all[5:]})
		fc.End()
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	r.askConfirm = true
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/delete abcd")
	got := out.String()
	if !strings.Contains(got, `13 conversations start with "abcd"`) || !strings.Contains(got, "  abcd-09  ") ||
		strings.Contains(got, "abcd-10") || !strings.HasSuffix(got, "  … and 3 more\n") {
		t.Errorf("output:\n%s", got)
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
