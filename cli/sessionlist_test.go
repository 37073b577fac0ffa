package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// pagedSessions serves 87 conversations over SESSION_LIST pages (limit,
// before), newest first, as the server does.
func pagedSessions(fc *npltfake.Conn) {
	f := fc.Expect(nplt.SessionList)
	var req nplt.SessionSearch
	if err := json.Unmarshal(f.Payload, &req); err != nil || req.Limit <= 0 {
		fc.Fail("list %q", f.Payload)
	}
	start := 0
	if req.Before != "" {
		fmt.Sscanf(req.Before, "c%d", &start)
	}
	end := min(start+req.Limit, 87)
	l := client.SessionList{Current: npltfake.Session}
	for i := start; i < end; i++ {
		l.Sessions = append(l.Sessions, client.SessionInfo{SessionID: fmt.Sprintf("s%03d-0000", i), Title: fmt.Sprintf("t%d", i)})
	}
	if end < 87 {
		l.Next = fmt.Sprintf("c%d", end)
	}
	fc.Result(client.KindSessionList, l)
	fc.End()
}

// TestREPLSessionsNewest20: with 87 conversations /sessions shows the
// newest 20 and says how many more there are and how to see them;
// /sessions --all pages through all 87.
func TestREPLSessionsNewest20(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		pagedSessions(fc) // /sessions: the first 20
		pagedSessions(fc) // the rest, counted
		pagedSessions(fc) // /sessions --all
		fc.ReadUntilEOF()
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	r.execute(ctx, "/sessions")
	got := out.String()
	if !strings.Contains(got, "20. [s019-000] t19\n") || strings.Contains(got, "21. ") ||
		!strings.HasSuffix(got, "67 more: /sessions --all or /sessions TEXT\n") {
		t.Fatalf("/sessions:\n%s", got)
	}
	out.Reset()
	r.execute(ctx, "/sessions --all")
	got = out.String()
	if !strings.Contains(got, "87. [s086-000] t86\n") || strings.Contains(got, "more:") {
		t.Fatalf("/sessions --all:\n%s", got)
	}
	if len(r.sessionIDs) != 87 {
		t.Errorf("%d ids for completion, want 87", len(r.sessionIDs))
	}
}

// TestSessionsCommand: "opsassist sessions" lists the newest 20 with a
// line naming the one-shot commands for the rest, in the locale;
// --json prints the list.
func TestSessionsCommand(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		pagedSessions(fc)
		pagedSessions(fc)
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runCLIEnv(t, map[string]string{EnvServer: s.Addr, "LANG": "zh_CN.UTF-8"}, "", "sessions")
	if code != ExitOK || !strings.HasPrefix(stdout, "=== 对话列表 ===\n1. [s000-000] t0\n") ||
		!strings.HasSuffix(stdout, "还有 67 个对话：opsassist sessions --all 列出全部，opsassist sessions TEXT 按内容查找\n") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		pagedSessions(fc) // --all: 500 a page, one page
		fc.ReadUntilEOF()
	})
	code, stdout, stderr = runCLI(t, s.Addr, "", "sessions", "--all", "--json")
	var l client.SessionList
	if err := json.Unmarshal([]byte(stdout), &l); code != ExitOK || err != nil || len(l.Sessions) != 87 {
		t.Fatalf("--json: exit %d, %d sessions, err %v, stderr %s", code, len(l.Sessions), err, stderr)
	}
	// --json alone lists every one too: a script must not get 20 that
	// look like the whole list.
	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		pagedSessions(fc)
		fc.ReadUntilEOF()
	})
	code, stdout, stderr = runCLI(t, s.Addr, "", "sessions", "--json")
	l = client.SessionList{}
	if err := json.Unmarshal([]byte(stdout), &l); code != ExitOK || err != nil || len(l.Sessions) != 87 {
		t.Fatalf("--json without --all: exit %d, %d sessions, err %v, stderr %s", code, len(l.Sessions), err, stderr)
	}
}

// TestREPLSessionsOlderServer: a server that cannot page sends the
// whole list; /sessions still shows the newest 20 and counts the rest.
func TestREPLSessionsOlderServer(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Greet()
		var h nplt.HelloPayload
		fc.ExpectJSON(nplt.Hello, &h)
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "old", Version: "0", SessionID: npltfake.Session, Model: npltfake.Model})
		if f := fc.Expect(nplt.SessionList); len(f.Payload) != 0 {
			fc.Fail("list %q", f.Payload)
		}
		l := client.SessionList{Current: npltfake.Session}
		for i := range 25 {
			l.Sessions = append(l.Sessions, client.SessionInfo{SessionID: fmt.Sprintf("s%03d-0000", i), Title: fmt.Sprintf("t%d", i)})
		}
		fc.Result(client.KindSessionList, l)
		fc.End()
		fc.ReadUntilEOF()
	})
	out := executeREPL(t, s, "/sessions")
	if got := out.String(); !strings.Contains(got, "20. [s019-000] t19\n") || strings.Contains(got, "21. ") || !strings.HasSuffix(got, "5 more: /sessions --all or /sessions TEXT\n") {
		t.Fatalf("/sessions:\n%s", got)
	}
}

// TestSessionsCommandLeavesOutOwn: "opsassist sessions" does not list
// (nor count) its own connection's fresh, empty conversation; one with
// messages is listed.
func TestSessionsCommandLeavesOutOwn(t *testing.T) {
	list := func(own int) func(fc *npltfake.Conn) {
		return func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.SessionList)
			fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
				{SessionID: npltfake.Session, Messages: own}, {SessionID: "a0000000-1", Title: "disk", Messages: 3}, {SessionID: "b0000000-2"}}})
			fc.End()
			fc.ReadUntilEOF()
		}
	}
	s := npltfake.New(t, list(0), list(0), list(2))
	code, stdout, stderr := runCLI(t, s.Addr, "", "sessions")
	if want := "=== Conversations ===\n1. [a0000000] disk\n   messages: 3, uploads: 0\n2. [b0000000] (untitled)\n   messages: 0, uploads: 0\n"; code != ExitOK || stdout != want {
		t.Fatalf("exit %d\nstdout %q\nwant   %q\nstderr %s", code, stdout, want, stderr)
	}
	code, stdout, _ = runCLI(t, s.Addr, "", "sessions", "--json")
	var l client.SessionList
	if err := json.Unmarshal([]byte(stdout), &l); code != ExitOK || err != nil || len(l.Sessions) != 2 {
		t.Fatalf("--json: exit %d, %s", code, stdout)
	}
	if code, stdout, _ = runCLI(t, s.Addr, "", "sessions"); code != ExitOK || !strings.Contains(stdout, "1. [sess-000] (untitled)\n") {
		t.Fatalf("own conversation with messages: exit %d\n%s", code, stdout)
	}
}

// TestSessionsDashDash: after "--" every argument is search text, as
// for the other subcommands: "sessions -- --all" searches for "--all"
// (and does not list everything), "sessions disk --all" lists every
// match of "disk"; the REPL's /sessions reads "--" the same way.
func TestSessionsDashDash(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		query string
		all   bool
	}{
		{[]string{"sessions", "--", "--all"}, "--all", false},
		{[]string{"sessions", "disk", "--all"}, "disk", true},
		{[]string{"sessions", "--all", "--", "-x", "y"}, "-x y", true},
	} {
		got := make(chan nplt.SessionSearch, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			f := fc.Expect(nplt.SessionList)
			var req nplt.SessionSearch
			json.Unmarshal(f.Payload, &req)
			got <- req
			fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session})
			fc.End()
			fc.ReadUntilEOF()
		})
		code, stdout, stderr := runCLI(t, s.Addr, "", tc.args...)
		req := <-got
		if code != ExitOK || req.Q != tc.query || (req.Limit == sessionsPageMax) != tc.all {
			t.Errorf("%q: exit %d, request %+v\nstdout %s\nstderr %s", tc.args, code, req, stdout, stderr)
		}
	}
	for arg, want := range map[string]string{"-- --all": "--all", "--all -- x": "x", "a --all b": "a b"} {
		all, q := sessionsArgs(strings.Fields(arg))
		if q != want || all != (arg != "-- --all") {
			t.Errorf("/sessions %s: all %v, text %q", arg, all, q)
		}
	}
}
