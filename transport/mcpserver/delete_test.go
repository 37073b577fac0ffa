package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// deleteSession sends DELETE for session sid of user with the protocol
// version header version ("" sends none) and returns the status.
func deleteSession(t *testing.T, url, user, sid, version string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set(userHeader, user)
	req.Header.Set(sessionHeader, sid)
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestRefusedDeleteKeepsTheSession: a DELETE the SDK refuses (400, an
// unsupported Mcp-Protocol-Version) leaves the session whole: its
// context is not ended, and its next call runs to the end.
func TestRefusedDeleteKeepsTheSession(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	e.tools["sys_monitor"].run = func(ctx context.Context, _ *tools.Call, _ json.RawMessage) (any, error) {
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	}
	if code := deleteSession(t, ts.URL, "alice", sid, "1999-01-01"); code != http.StatusBadRequest {
		t.Fatalf("DELETE with an unsupported version: %d, want 400", code)
	}
	st := e.srv.httpSession(sid)
	if st == nil || st.ctx.Err() != nil {
		t.Fatalf("the refused DELETE ended the session: %v", st)
	}
	resp := post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sys_monitor","arguments":{}}}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `\"ok\":true`) || strings.Contains(string(b), `"isError":true`) {
		t.Fatalf("call after the refused DELETE: %d %s", resp.StatusCode, b)
	}
	// An accepted DELETE still ends it.
	if code := deleteSession(t, ts.URL, "alice", sid, "2025-06-18"); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d", code)
	}
	if st.ctx.Err() == nil || e.srv.httpSession(sid) != nil {
		t.Fatal("the accepted DELETE left the session")
	}
}

// TestCallOfAnEndedSessionIsRefused: a call that reaches a session
// whose context has already ended is refused at once — the tool never
// starts — and recorded as refused before running.
func TestCallOfAnEndedSessionIsRefused(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	e.srv.httpSession(sid).end()
	resp := post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sys_monitor","arguments":{"metric":"cpu"}}}`)
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), "session has ended") {
		t.Fatalf("call of an ended session: %d %s", resp.StatusCode, b)
	}
	if n := e.tools["sys_monitor"].runs.Load(); n != 0 {
		t.Fatalf("the tool ran %d times", n)
	}
	rec := e.rec.Last(t)
	if rec.Tool != "sys_monitor" || rec.DecidedBy != tools.ByDisconnect || rec.Status != tools.StatusDenied || rec.Session == "" || rec.User != "alice" {
		t.Fatalf("record %+v", rec)
	}
}

// TestCallOfAnEndedRequestIsRefused: a call whose carrying HTTP request
// has already ended (its context done, or no longer tracked) is refused
// before the tool starts, and recorded.
func TestCallOfAnEndedRequestIsRefused(t *testing.T) {
	e := newEnv(t, Config{})
	st := newSession(context.Background(), alice, 4)
	h := e.srv.handle("sys_monitor", func(*mcp.ServerSession) *session { return st })
	rctx, cancel := context.WithCancel(context.Background())
	defer st.track("tok-ended", rctx)()
	cancel()
	for _, token := range []string{"tok-ended", "tok-gone"} {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "sys_monitor", Arguments: json.RawMessage(`{}`)},
			Extra: &mcp.RequestExtra{Header: http.Header{callHeader: {token}}}}
		res, err := h(context.Background(), req)
		if err != nil || !res.IsError || !strings.Contains(text(res), "the request that carried it has ended") {
			t.Fatalf("%s: %v %+v", token, err, res)
		}
		if rec := e.rec.Last(t); rec.DecidedBy != tools.ByDisconnect || rec.Status != tools.StatusDenied {
			t.Fatalf("%s: record %+v", token, rec)
		}
	}
	if n := e.tools["sys_monitor"].runs.Load(); n != 0 {
		t.Fatalf("the tool ran %d times", n)
	}
}
