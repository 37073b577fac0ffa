package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/chat"
	"opsassist/tools"
)

// failsafe bounds a wait that a correct server ends at once; reaching
// it is the failure, never a measurement.
const failsafe = 20 * time.Second

// wait waits for ch, failing the test at the failsafe.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(failsafe):
		t.Fatalf("never: %s", what)
	}
}

// blocking makes sys_monitor signal started and block until release (or
// its ctx ends, when honourCtx).
func blocking(e *env, started chan<- struct{}, release <-chan struct{}, honourCtx bool) {
	e.tools["sys_monitor"].run = func(ctx context.Context, _ *tools.Call, _ json.RawMessage) (any, error) {
		started <- struct{}{}
		if honourCtx {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		} else {
			<-release
		}
		return map[string]any{"ok": true}, nil
	}
}

// goCall calls sys_monitor in the background; the result arrives on the
// returned channel.
func goCall(cs *mcp.ClientSession) <-chan *mcp.CallToolResult {
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{}})
		if err != nil {
			res = errorResult("transport error: %v", err)
		}
		ch <- res
	}()
	return ch
}

// refused calls sys_monitor, which must answer at once (the failsafe
// ends a call that was queued or run instead).
func refused(t *testing.T, cs *mcp.ClientSession) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("call past the bound not refused at once: %v", err)
	}
	return res
}

func TestCallsPerSessionAreBounded(t *testing.T) {
	e := newEnv(t, Config{MaxCallsPerSession: 2, MaxCallsPerUser: 10})
	started, release := make(chan struct{}, 8), make(chan struct{})
	blocking(e, started, release, false)
	cs := e.connect(t, alice, nil)
	other := e.connect(t, alice, nil)
	rel := sync.OnceFunc(func() { close(release) })
	t.Cleanup(rel) // before the sessions close, even on failure
	r1, r2 := goCall(cs), goCall(cs)
	wait(t, started, "first call")
	wait(t, started, "second call")
	res := refused(t, cs)
	if !res.IsError || !strings.Contains(text(res), "this MCP session already runs 2 calls at once") {
		t.Fatalf("third call: %v %q", res.IsError, text(res))
	}
	// Another session of the same user has its own slots.
	r3 := goCall(other)
	wait(t, started, "other session's call")
	rel()
	for _, r := range []<-chan *mcp.CallToolResult{r1, r2, r3} {
		if res := <-r; res.IsError {
			t.Fatalf("a call within the bound: %q", text(res))
		}
	}
	if res := call(t, cs, "sys_monitor", `{}`); res.IsError {
		t.Fatalf("after: %q", text(res))
	}
}

func TestCallsPerUserAreBounded(t *testing.T) {
	e := newEnv(t, Config{MaxCallsPerSession: 4, MaxCallsPerUser: 2})
	started, release := make(chan struct{}, 8), make(chan struct{})
	blocking(e, started, release, false)
	a1, a2 := e.connect(t, alice, nil), e.connect(t, alice, nil)
	bob := e.connect(t, chat.Principal{ID: "u-bob", Name: "bob", Role: "operator"}, nil)
	rel := sync.OnceFunc(func() { close(release) })
	t.Cleanup(rel) // before the sessions close, even on failure
	r1, r2 := goCall(a1), goCall(a2)
	wait(t, started, "first call")
	wait(t, started, "second call")
	res := refused(t, a1)
	if !res.IsError || !strings.Contains(text(res), "user alice already runs 2 calls at once over MCP") {
		t.Fatalf("alice's third call: %v %q", res.IsError, text(res))
	}
	// Bob is not alice.
	rb := goCall(bob)
	wait(t, started, "bob's call")
	rel()
	for _, r := range []<-chan *mcp.CallToolResult{r1, r2, rb} {
		if res := <-r; res.IsError {
			t.Fatalf("a call within the bound: %q", text(res))
		}
	}
}

// TestAbandonedHTTPCallIsCancelled: a call whose POST the client
// abandoned is cancelled, not left running for nobody.
func TestAbandonedHTTPCallIsCancelled(t *testing.T) {
	e := newEnv(t, Config{})
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	cancelled := make(chan struct{})
	e.tools["sys_monitor"].run = func(ctx context.Context, _ *tools.Call, _ json.RawMessage) (any, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			close(cancelled)
			return nil, ctx.Err()
		case <-release:
			return "late", nil
		}
	}
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sys_monitor","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(userHeader, "alice")
	req.Header.Set(sessionHeader, sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	req.Header.Set(callHeader, "forged") // the server's header: dropped
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	wait(t, started, "the call")
	cancel()
	<-done
	wait(t, cancelled, "the abandoned call cancelled")
	// The session goes on.
	e.tools["sys_monitor"].run = func(context.Context, *tools.Call, json.RawMessage) (any, error) { return "fine", nil }
	resp := post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"sys_monitor","arguments":{}}}`)
	if b, _ := io.ReadAll(resp.Body); !strings.Contains(string(b), "fine") {
		t.Fatalf("next call: %d %s", resp.StatusCode, b)
	}
}

// panicOnce panics on its first call, outside any Tool.Run (where the
// registry recovers), then runs calls through the registry.
type panicOnce struct {
	*tools.Registry
	done atomic.Bool
}

func (p *panicOnce) Execute(ctx context.Context, call *tools.Call, name, args string) tools.Outcome {
	if p.done.CompareAndSwap(false, true) {
		panic("bug outside Tool.Run")
	}
	return p.Registry.Execute(ctx, call, name, args)
}

func TestPanicOutsideTheToolKeepsTheServer(t *testing.T) {
	e := newEnv(t, Config{})
	srv, err := New(Config{Runner: &panicOnce{Registry: e.reg}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	e.srv = srv
	cs := e.connect(t, alice, nil)
	res := call(t, cs, "sys_monitor", `{}`)
	if !res.IsError || !strings.Contains(text(res), "internal error in the opsassist server") {
		t.Fatalf("panicking call: %v %q", res.IsError, text(res))
	}
	if res := call(t, cs, "sys_monitor", `{}`); res.IsError || !strings.Contains(text(res), "cpu_percent") {
		t.Fatalf("next call: %v %q", res.IsError, text(res))
	}
}

const initElicit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`

// untilElicitation reads an SSE response until the server's
// elicitation request.
func untilElicitation(t *testing.T, body io.Reader) {
	t.Helper()
	br := bufio.NewReader(body)
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("no elicitation: %v", err)
		}
		if strings.Contains(l, "elicitation/create") {
			return
		}
	}
}

// TestDeleteCancelsAPendingElicitation: a client that ends its session
// while asked leaves at once, and the call is recorded as a disconnect
// (as a chat client's that leaves), not a timeout.
func TestDeleteCancelsAPendingElicitation(t *testing.T) {
	e := newEnv(t, Config{PermissionTimeout: time.Hour})
	ts := serveHTTP(t, e)
	resp := post(t, ts.URL, "alice", "", initElicit)
	sid := resp.Header.Get(sessionHeader)
	io.Copy(io.Discard, resp.Body)
	post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp = post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"command_executor","arguments":{"command":"systemctl restart nginx"}}}`)
	untilElicitation(t, resp.Body)
	req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	req.Header.Set(userHeader, "alice")
	req.Header.Set(sessionHeader, sid)
	deleted := make(chan int, 1)
	go func() {
		dr, err := http.DefaultClient.Do(req)
		if err != nil {
			deleted <- 0
			return
		}
		dr.Body.Close()
		deleted <- dr.StatusCode
	}()
	select {
	case code := <-deleted:
		if code != http.StatusNoContent {
			t.Fatalf("DELETE: %d", code)
		}
	case <-time.After(failsafe):
		t.Fatal("DELETE waits for the pending elicitation")
	}
	if rec := e.rec.Last(t); rec.DecidedBy != tools.ByDisconnect || e.tools["command_executor"].runs.Load() != 0 {
		t.Fatalf("record %+v", rec)
	}
}

// TestShutdownKeepsItsDeadline: a tool that ignores cancellation does
// not hold Shutdown past its ctx.
func TestShutdownKeepsItsDeadline(t *testing.T) {
	e := newEnv(t, Config{})
	started, release := make(chan struct{}, 1), make(chan struct{})
	blocking(e, started, release, false)
	defer close(release)
	ts := serveHTTP(t, e)
	sid := open(t, ts.URL, "alice")
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"sys_monitor","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(userHeader, "alice")
		req.Header.Set(sessionHeader, sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	wait(t, started, "the call")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // already over: Shutdown must not wait for the call
	returned := make(chan error, 1)
	go func() { returned <- e.srv.Shutdown(ctx) }()
	select {
	case err := <-returned:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Shutdown: %v, want its ctx's error", err)
		}
	case <-time.After(failsafe):
		t.Fatal("Shutdown waits for a call past its ctx")
	}
}

func TestSessionsPerUserAreBounded(t *testing.T) {
	e := newEnv(t, Config{MaxSessions: 4, MaxSessionsPerUser: 2})
	ts := serveHTTP(t, e)
	for range 2 {
		resp := post(t, ts.URL, "mallory", "", initBody) // not even initialized
		io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("mallory: %d", resp.StatusCode)
		}
	}
	resp := post(t, ts.URL, "mallory", "", initBody)
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "mallory has 2 MCP sessions open") {
		t.Fatalf("mallory's third: %d %s", resp.StatusCode, b)
	}
	open(t, ts.URL, "alice") // another user still gets one
}

// TestElicitationNeedsAProtocolThatHasIt: a client that declares
// elicitation but asked for a protocol without server-initiated
// elicitation is refused at once (no_client), never sent a request it
// cannot answer.
func TestElicitationNeedsAProtocolThatHasIt(t *testing.T) {
	for v, header := range map[string]string{"2025-03-26": "2025-03-26", "2026-07-28": "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			// Refused at once; a server that asks gives up after a second.
			e := newEnv(t, Config{PermissionTimeout: time.Second})
			ts := serveHTTP(t, e)
			resp := post(t, ts.URL, "alice", "", strings.Replace(initElicit, "2025-06-18", v, 1))
			io.Copy(io.Discard, resp.Body)
			sid := resp.Header.Get(sessionHeader)
			post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Mcp-Protocol-Version", header)
			resp = post(t, ts.URL, "alice", sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"command_executor","arguments":{"command":"systemctl restart nginx"}}}`, "Mcp-Protocol-Version", header)
			b, _ := io.ReadAll(resp.Body)
			if strings.Contains(string(b), "elicitation/create") || !strings.Contains(string(b), "this client cannot be asked") {
				t.Fatalf("call: %d %s", resp.StatusCode, b)
			}
			if rec := e.rec.Last(t); rec.DecidedBy != tools.DecidedByNoClient {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

// TestInvalidElicitationAnswerIsARefusal: an answer that is an error or
// not the form refuses the call as the user's, not a disconnect.
func TestInvalidElicitationAnswerIsARefusal(t *testing.T) {
	for name, h := range map[string]func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error){
		"error": func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, fmt.Errorf("no") },
		"bogus": func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "sure"}}, nil
		},
		"action": func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "yes"}, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, Config{})
			cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: h})
			res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
			if !res.IsError || e.tools["command_executor"].runs.Load() != 0 {
				t.Fatalf("result %v %q", res.IsError, text(res))
			}
			if rec := e.rec.Last(t); rec.DecidedBy != tools.ByUser {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}
