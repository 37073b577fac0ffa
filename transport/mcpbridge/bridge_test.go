package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const testToken = "bridge-test-token-0123456789"

// echoSchema is the daemon's echo tool's input schema, compared as JSON.
var echoSchema = map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"text": map[string]any{"type": "string", "description": "what to echo"}},
	"required":             []any{"text"},
	"additionalProperties": false,
}

// fakeDaemon is a streamable HTTP MCP server standing in for opsassistd's
// /mcp: it demands the bearer token and offers tools that echo, fail,
// ask the client (elicitation) and report what the bridge declared.
type fakeDaemon struct {
	mcp     *mcp.Server
	srv     *httptest.Server
	calls   atomic.Int32
	restart func() // forgets every session, as a restarted daemon does
}

func newFakeDaemon(t *testing.T) *fakeDaemon {
	t.Helper()
	d := &fakeDaemon{}
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-opsassistd", Version: "test"}, nil)
	d.mcp = s
	s.AddTool(&mcp.Tool{Name: "echo", Title: "Echo", Description: "echoes text", InputSchema: echoSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Echo it"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			d.calls.Add(1)
			var args struct{ Text string }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + args.Text}},
				StructuredContent: map[string]any{"text": args.Text}}, nil
		})
	destructive := true
	s.AddTool(&mcp.Tool{Name: "fail", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "boom"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "refuse", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "refuse: bad arguments"}
		})
	s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			caps := req.Session.InitializeParams().Capabilities
			if caps == nil || caps.Elicitation == nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "denied: the client cannot confirm"}}}, nil
			}
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Run the command?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"decision": map[string]any{"type": "string", "enum": []any{"allow_once", "deny"}}}}})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + " " + res.Content["decision"].(string)}}}, nil
		})
	var h atomic.Pointer[mcp.StreamableHTTPHandler]
	d.restart = func() { h.Store(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)) }
	d.restart()
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(d.srv.Close)
	return d
}

// serveRaw runs a bridge over pipes and returns a function sending one
// line and one reading the next line the bridge writes.
func serveRaw(t *testing.T, cfg Config) (send func(string), recv func() string) {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	t.Cleanup(func() { inW.Close(); go io.Copy(io.Discard, outR); cancel(); <-done })
	lines := bufio.NewScanner(outR)
	send = func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv = func() string {
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	return send, recv
}

const rawInitialize = `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// session starts a bridge to url and connects a local client to it over
// in-memory transports; it returns the client session and a function
// that waits for Serve's result.
func session(t *testing.T, url, token string, opts *mcp.ClientOptions) (*mcp.ClientSession, func() error, error) {
	t.Helper()
	b, err := New(Config{URL: url, Token: token, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, st) }()
	served := sync.OnceValue(func() error { return <-done })
	t.Cleanup(func() { cancel(); served() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop-agent", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, served, err
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content %+v, want one text", res.Content)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	return tc.Text
}

// TestListForwardsTools: the local client sees the daemon's tools with
// their names, schemas, titles and annotations.
func TestListForwardsTools(t *testing.T) {
	d := newFakeDaemon(t)
	cs, _, err := session(t, d.srv.URL, testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
	}
	if len(byName) != 4 || byName["echo"] == nil || byName["fail"] == nil || byName["confirm"] == nil || byName["refuse"] == nil {
		t.Fatalf("tools %v, want echo, fail, confirm, refuse", byName)
	}
	echo := byName["echo"]
	var schema map[string]any
	raw, _ := json.Marshal(echo.InputSchema)
	json.Unmarshal(raw, &schema)
	if !reflect.DeepEqual(schema, echoSchema) {
		t.Errorf("echo schema %v, want %v", schema, echoSchema)
	}
	if echo.Title != "Echo" || echo.Description != "echoes text" || echo.Annotations == nil || !echo.Annotations.ReadOnlyHint || echo.Annotations.Title != "Echo it" {
		t.Errorf("echo %+v annotations %+v", echo, echo.Annotations)
	}
	if a := byName["fail"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("fail annotations %+v, want destructive", a)
	}
}

// TestCallForwardsArgsAndResults: arguments reach the daemon as sent;
// text, structured content and isError come back; the daemon's protocol
// error stays a protocol error.
func TestCallForwardsArgsAndResults(t *testing.T) {
	d := newFakeDaemon(t)
	cs, _, err := session(t, d.srv.URL, testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "héllo"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || text(t, res) != "echo: héllo" {
		t.Fatalf("echo: %+v %q", res, text(t, res))
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc["text"] != "héllo" {
		t.Errorf("structured content %v", res.StructuredContent)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || text(t, res) != "boom" {
		t.Fatalf("fail: %+v", res)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refuse"})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "refuse: bad arguments") {
		t.Fatalf("refuse: %v, want the daemon's protocol error", err)
	}
	if d.calls.Load() != 1 {
		t.Errorf("daemon ran echo %d times, want 1", d.calls.Load())
	}
}

// TestElicitationForwarded: the daemon's confirmation reaches the local
// client and its answer reaches the daemon; a client that did not
// declare elicitation is not declared to the daemon either.
func TestElicitationForwarded(t *testing.T) {
	d := newFakeDaemon(t)
	var asked atomic.Value
	cs, _, err := session(t, d.srv.URL, testToken, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Store(req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow_once"}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || text(t, res) != "accept allow_once" || asked.Load() != "Run the command?" {
		t.Fatalf("confirm: %q (asked %v)", text(t, res), asked.Load())
	}

	plain, _, err := session(t, d.srv.URL, testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = plain.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(text(t, res), "cannot confirm") {
		t.Fatalf("confirm without elicitation: %+v", res)
	}
}

// TestDaemonGoneMidSession: calls after the daemon went away are tool
// errors naming it, and the session stays up.
func TestDaemonGoneMidSession(t *testing.T) {
	d := newFakeDaemon(t)
	cs, _, err := session(t, d.srv.URL, testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "a"}}); err != nil {
		t.Fatal(err)
	}
	d.srv.CloseClientConnections()
	d.srv.Close()
	for range 2 { // the broken session, then a failed reconnection
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "b"}})
		if err != nil {
			t.Fatalf("call after the daemon left: %v, want a tool error", err)
		}
		if !res.IsError || !strings.Contains(text(t, res), "opsassist daemon unreachable") || !strings.Contains(text(t, res), d.srv.URL) {
			t.Fatalf("call after the daemon left: %+v", res)
		}
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatalf("local session after the daemon left: %v", err)
	}
}

// TestDaemonRestarted: the call that finds the daemon's session gone is a
// tool error (it is not repeated: it may have run); the next call
// connects again and runs.
func TestDaemonRestarted(t *testing.T) {
	d := newFakeDaemon(t)
	cs, _, err := session(t, d.srv.URL, testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := func() *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(); res.IsError {
		t.Fatalf("first call: %+v", res)
	}
	d.restart()
	if res := call(); !res.IsError || !strings.Contains(text(t, res), "may or may not have run") {
		t.Fatalf("call into the lost session: %+v", res)
	}
	if res := call(); res.IsError || text(t, res) != "echo: x" {
		t.Fatalf("call after reconnecting: %+v", res)
	}
	if n := d.calls.Load(); n != 2 {
		t.Errorf("daemon ran echo %d times, want 2", n)
	}
}

// TestUnreachableAtInitialize: no daemon, or a wrong token, fails the
// client's initialize with a message naming the daemon, and Serve
// reports ErrUnreachable once the client leaves.
func TestUnreachableAtInitialize(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	d := newFakeDaemon(t)
	for _, c := range []struct{ name, url, token string }{{"no daemon", dead, testToken}, {"wrong token", d.srv.URL, "wrong"}} {
		t.Run(c.name, func(t *testing.T) {
			cs, served, err := session(t, c.url, c.token, nil)
			if err == nil {
				cs.Close()
				t.Fatal("initialize succeeded")
			}
			if !strings.Contains(err.Error(), "opsassist daemon unreachable") || !strings.Contains(err.Error(), c.url) {
				t.Fatalf("initialize: %v", err)
			}
			if err := served(); !errors.Is(err, ErrUnreachable) {
				t.Fatalf("Serve: %v, want ErrUnreachable", err)
			}
		})
	}
}

// TestDuplicateInitialize: a second initialize is refused and does not
// connect to the daemon again; the session goes on.
func TestDuplicateInitialize(t *testing.T) {
	d := newFakeDaemon(t)
	var connects atomic.Int32
	inner := d.srv.Config.Handler
	d.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			connects.Add(1)
		}
		inner.ServeHTTP(w, r)
	})
	send, recv := serveRaw(t, Config{URL: d.srv.URL, Token: testToken})
	send(fmt.Sprintf(rawInitialize, 1))
	if got := recv(); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatalf("initialize: %s", got)
	}
	send(fmt.Sprintf(rawInitialize, 2))
	if got := recv(); !strings.Contains(got, `"id":2,"error"`) {
		t.Fatalf("second initialize: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"on"}}}`)
	got := recv()
	for !strings.Contains(got, `"id":3`) {
		got = recv() // list_changed notifications
	}
	if !strings.Contains(got, "echo: on") {
		t.Fatalf("call: %s", got)
	}
	if n := connects.Load(); n != 1 {
		t.Fatalf("%d connections to the daemon, want 1", n)
	}
}

// TestSlowDaemonAtInitialize: a daemon that accepts but never answers
// fails the initialize after ConnectTimeout instead of hanging it.
func TestSlowDaemonAtInitialize(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	send, recv := serveRaw(t, Config{URL: srv.URL, ConnectTimeout: 50 * time.Millisecond})
	send(fmt.Sprintf(rawInitialize, 1))
	if got := recv(); !strings.Contains(got, `"id":1,"error"`) || !strings.Contains(got, "opsassist daemon unreachable") {
		t.Fatalf("initialize: %s", got)
	}
}

// TestToolsChanged: a tool the daemon adds later reaches the local
// client, announced by tools/list_changed.
func TestToolsChanged(t *testing.T) {
	d := newFakeDaemon(t)
	changed := make(chan struct{}, 16)
	cs, _, err := session(t, d.srv.URL, testToken, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	d.mcp.AddTool(&mcp.Tool{Name: "late", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil
		})
	for {
		select {
		case <-changed:
		case <-time.After(30 * time.Second):
			t.Fatal("no tools/list_changed for the daemon's new tool")
		}
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range res.Tools {
			if tl.Name == "late" {
				return
			}
		}
	}
}
