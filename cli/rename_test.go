package cli

import (
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestREPLRename: /rename TITLE sends SESSION_RENAME {"title"}, /rename
// alone sends "" (back to the derived title), and a refusal is shown as
// the server's message.
func TestREPLRename(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.SessionRename); string(f.Payload) != `{"title":"夜间 巡检"}` {
			fc.Fail("rename %q", f.Payload)
		}
		fc.Result(client.KindSession, client.SessionInfo{SessionID: npltfake.Session, Title: "夜间 巡检"})
		fc.Text("已重命名会话 Renamed session: [sess-000] 夜间 巡检")
		fc.End()
		if f := fc.Expect(nplt.SessionRename); string(f.Payload) != `{"title":""}` {
			fc.Fail("reset %q", f.Payload)
		}
		fc.Error(api.CodeBadRequest, "标题太长：最多 200 个字符。")
		fc.End()
		fc.ReadUntilEOF()
	})
	out := executeREPL(t, s, "/rename 夜间 巡检", "/rename")
	got := out.String()
	for _, want := range []string{"Renamed conversation: [sess-000] 夜间 巡检\n", "标题太长：最多 200 个字符。"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestREPLRenameOldServer: a server that does not announce "rename" is
// sent nothing, and the user is told why.
func TestREPLRenameOldServer(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Greet()
		var h nplt.HelloPayload
		fc.ExpectJSON(nplt.Hello, &h)
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "fake", SessionID: npltfake.Session, Model: npltfake.Model, MaxUpload: 10})
		fc.ReadUntilEOF() // no SESSION_RENAME
	})
	out := executeREPL(t, s, "/rename x")
	if got := out.String(); !strings.Contains(got, "cannot rename conversations") || strings.Contains(got, "client:") {
		t.Errorf("output:\n%s", got)
	}
}

// TestREPLSessionsSearch: /sessions TEXT sends SESSION_LIST {"q"} and
// /sessions alone no q, each for the newest 20 (issue 15: a page, not
// every conversation).
func TestREPLSessionsSearch(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.SessionList); string(f.Payload) != `{"q":"disk full","limit":20}` {
			fc.Fail("search %q", f.Payload)
		}
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{{SessionID: "sess-0002-bbbb", Title: "disk full"}}})
		fc.Text("=== 会话列表 Sessions: \"disk full\" ===\n1. [sess-000] disk full\n")
		fc.End()
		if f := fc.Expect(nplt.SessionList); string(f.Payload) != `{"q":"","limit":20}` {
			fc.Fail("list %q", f.Payload)
		}
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session})
		fc.Text("=== 会话列表 Sessions ===\n")
		fc.End()
		fc.ReadUntilEOF()
	})
	out := executeREPL(t, s, "/sessions disk full", "/sessions")
	// Rendered from the data in the CLI's language (issue 15).
	if got := out.String(); !strings.Contains(got, "=== Conversations: \"disk full\" ===\n1. [sess-000] disk full\n") ||
		!strings.Contains(got, "=== Conversations ===\n(no conversations yet)\n") || strings.Contains(got, "会话") {
		t.Errorf("output:\n%s", got)
	}
}
