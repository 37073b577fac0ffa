package mcpserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/chat"
)

// userHeader names the test's principal (the HTTP server's
// authentication, in the daemon).
const userHeader = "X-Test-User"

func byHeader(r *http.Request) chat.Principal {
	n := r.Header.Get(userHeader)
	return chat.Principal{ID: "u-" + n, Name: n, Role: "operator"}
}

// serveHTTP serves e's Handler on a loopback httptest server.
func serveHTTP(t *testing.T, e *env) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(e.srv.Handler(byHeader))
	t.Cleanup(func() {
		e.srv.Shutdown(context.Background())
		ts.Close()
	})
	return ts
}

// userTransport adds the test principal's header to every request.
type userTransport struct{ user string }

func (u userTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(userHeader, u.user)
	return http.DefaultTransport.RoundTrip(r)
}

func sdkClient(t *testing.T, url, user string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: userTransport{user}}, DisableStandaloneSSE: true}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, opts).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends body to url as user, with session id sid if set, and
// returns the response.
func post(t *testing.T, url, user, sid, body string, hdr ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(userHeader, user)
	if sid != "" {
		req.Header.Set(sessionHeader, sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// open initializes a session as user over raw HTTP and returns its id.
func open(t *testing.T, url, user string) string {
	t.Helper()
	resp := post(t, url, user, "", initBody)
	io.Copy(io.Discard, resp.Body)
	sid := resp.Header.Get(sessionHeader)
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	resp = post(t, url, user, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d", resp.StatusCode)
	}
	return sid
}

func TestHTTPListAndCall(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	cs := sdkClient(t, ts.URL, "bob", nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 5 {
		t.Fatalf("list: %v, %d tools", err, len(res.Tools))
	}
	if r := call(t, cs, "sys_monitor", `{}`); r.IsError {
		t.Fatalf("call: %q", text(r))
	}
	if rec := e.rec.Last(t); rec.User != "bob" || rec.Client != api.ClientMCP {
		t.Fatalf("record %+v", rec)
	}
	// An elicitation rides the call's stream.
	var mu sync.Mutex
	var asked []string
	cs2 := sdkClient(t, ts.URL, "bob", &mcp.ClientOptions{ElicitationHandler: answer(api.DecisionAllowOnce, &asked, &mu)})
	if r := call(t, cs2, "command_executor", `{"command":"systemctl restart nginx"}`); r.IsError || len(asked) != 1 {
		t.Fatalf("ask over HTTP: %v %q, asked %d", r.IsError, text(r), len(asked))
	}
}

func TestShutdownEndsStreams(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(userHeader, "alice")
	req.Header.Set(sessionHeader, sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	if err := e.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) // returns: the stream ended
	if resp := post(t, ts.URL, "alice", "", initBody); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("new session after Shutdown: %d, want 503", resp.StatusCode)
	}
}

func TestHTTPSessionBelongsToItsPrincipal(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if resp := post(t, ts.URL, "mallory", sid, list); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("another principal: %d, want 403", resp.StatusCode)
	}
	if resp := post(t, ts.URL, "alice", sid, list); resp.StatusCode != http.StatusOK {
		t.Fatalf("its principal: %d", resp.StatusCode)
	}
	if resp := post(t, ts.URL, "alice", "no-such-session", list); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown session: %d, want 404", resp.StatusCode)
	}
	// A replayed initialize on the session is the SDK's refusal; the
	// session still serves.
	post(t, ts.URL, "alice", sid, initBody)
	if resp := post(t, ts.URL, "alice", sid, list); resp.StatusCode != http.StatusOK {
		t.Fatalf("after a replayed initialize: %d", resp.StatusCode)
	}
}

// TestHTTPLeavesTheHostCheckToTheHTTPServer: the Host check against DNS
// rebinding is transport/web's (checkHost, which refuses other Hosts on
// an open loopback server, TestMCPMountedOnAnOpenServer); the SDK's own,
// which judges by the connection's local address, would refuse a
// same-host reverse proxy that keeps the Host on a server with a token.
func TestHTTPLeavesTheHostCheckToTheHTTPServer(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e) // a loopback connection, as from a proxy on the same host
	resp := post(t, ts.URL, "alice", "", initBody, "Host", "ops.example.com")
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || resp.Header.Get(sessionHeader) == "" {
		t.Fatalf("Host ops.example.com over loopback: %d %s, want 200 and a session", resp.StatusCode, b)
	}
}

func TestHTTPRefusesOtherOrigins(t *testing.T) {
	e := newEnv(t, Config{})
	ts := serveHTTP(t, e)
	if resp := post(t, ts.URL, "alice", "", initBody, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin POST: %d, want 403", resp.StatusCode)
	}
	sid := open(t, ts.URL, "alice")
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(userHeader, "alice")
	req.Header.Set(sessionHeader, sid)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site GET: %d, want 403", resp.StatusCode)
	}
}

func TestHTTPMalformedAndOversized(t *testing.T) {
	e := newEnv(t, Config{MaxBody: 4 << 10})
	ts := serveHTTP(t, e)
	for body, want := range map[string]int{
		`{"jsonrpc":`: http.StatusBadRequest,
		`not json`:    http.StatusBadRequest,
		``:            http.StatusBadRequest,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + strings.Repeat("x", 8<<10) + `"}}`: http.StatusRequestEntityTooLarge,
	} {
		resp := post(t, ts.URL, "alice", "", body)
		if resp.StatusCode != want {
			b, _ := io.ReadAll(resp.Body)
			t.Errorf("body %.20q: %d %s, want %d", body, resp.StatusCode, b, want)
		}
	}
	// The server still serves a proper session.
	sid := open(t, ts.URL, "alice")
	resp := post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sys_monitor","arguments":{}}}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("cpu_percent")) {
		t.Fatalf("after the bad requests: %d %s", resp.StatusCode, b)
	}
}

func TestHTTPSessionCap(t *testing.T) {
	e := newEnv(t, Config{MaxSessions: 1})
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	if resp := post(t, ts.URL, "alice", "", initBody); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second session: %d, want 503", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	req.Header.Set(userHeader, "alice")
	req.Header.Set(sessionHeader, sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	// DELETE ended it: room for a new one at once.
	if resp := post(t, ts.URL, "alice", "", initBody); resp.StatusCode != http.StatusOK {
		t.Fatalf("after DELETE: %d, want 200", resp.StatusCode)
	}
}
