package npltserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/tools"
	"opsassist/tools/policy"
)

// probeTool answers its arguments, the call's session, user and whether
// it was approved. "slow" blocks until its context ends, telling started
// and stopped.
type probeTool struct {
	name    string
	risk    tools.Risk
	started chan struct{}
	stopped chan struct{}
}

func (p probeTool) Spec() tools.Spec {
	return tools.Spec{Name: p.name, Description: "probes " + p.name, Risk: p.risk,
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

func (p probeTool) Run(ctx context.Context, call *tools.Call, args json.RawMessage) (any, error) {
	if p.started != nil {
		close(p.started)
		<-ctx.Done()
		close(p.stopped)
		return nil, ctx.Err()
	}
	return map[string]any{"args": args, "session": call.SessionID, "user": call.User, "approved": call.Approved}, nil
}

// catalogOf is a toolcall.Catalog over a registry, with one MCP server.
type catalogOf struct{ reg *tools.Registry }

func (c catalogOf) Tools() []api.ToolInfo {
	var out []api.ToolInfo
	for _, s := range c.reg.Specs() {
		out = append(out, api.ToolInfo{Name: s.Name, Description: s.Description, Source: api.SourceBuiltin, Risk: string(s.Risk), Parameters: s.Parameters, Available: true})
	}
	return out
}

func (c catalogOf) Servers() []api.MCPServerInfo {
	return []api.MCPServerInfo{{Name: "fs", State: "starting"}}
}

// toolEnv is a server with users alice (operator) and bob (viewer) whose
// registry, under the real role policy, holds "look" (read-only),
// "asked" (sensitive: ask), "refused" (denied by a rule) and "slow"
// (read-only, runs until cancelled).
type toolEnv struct {
	ts    *testServer
	audit *testkit.Records
	slow  probeTool
}

func newToolEnv(t *testing.T, opts ...serverOpt) *toolEnv {
	t.Helper()
	pol, err := policy.New(policy.Config{Rules: []policy.Rule{{Tool: "refused", Decision: tools.Deny}}})
	if err != nil {
		t.Fatal(err)
	}
	e := &toolEnv{audit: &testkit.Records{}, slow: probeTool{name: "slow", risk: tools.RiskReadOnly, started: make(chan struct{}), stopped: make(chan struct{})}}
	reg := tools.NewRegistry(tools.Config{Policy: pol, Audit: e.audit})
	for _, tl := range []tools.Tool{
		probeTool{name: "look", risk: tools.RiskReadOnly},
		probeTool{name: "asked", risk: tools.RiskSensitive},
		probeTool{name: "refused", risk: tools.RiskSensitive},
		e.slow,
	} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	opts = append([]serverOpt{func(c *Config, _ *chat.Config) { c.Catalog, c.Runner = catalogOf{reg}, reg }}, opts...)
	e.ts = startServer(t, "", opts...)
	return e
}

// withUsers gives the server users alice (operator) and bob (viewer).
func withUsers(t *testing.T) serverOpt {
	return func(c *Config, _ *chat.Config) { c.Users = twoUsers(t) }
}

// document concatenates the payloads of a reply's frames of type t.
func document(t *testing.T, fs []nplt.Frame, typ nplt.Type) []byte {
	t.Helper()
	var b []byte
	n := 0
	for _, f := range fs {
		if f.Type == typ {
			b = append(b, f.Payload...)
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no %v in reply %v", typ, fs)
	}
	return b
}

// call sends TOOL_CALL and decodes the result of its reply.
func (c *client) call(t *testing.T, payload string) api.ToolResult {
	t.Helper()
	c.send(nplt.ToolCall, []byte(payload))
	fs := c.reply()
	var r api.ToolResult
	if err := json.Unmarshal(document(t, fs, nplt.ToolCall), &r); err != nil {
		t.Fatalf("result %v: %v", fs, err)
	}
	return r
}

// refusal sends a frame and returns its reply's ERROR code.
func (c *client) refusal(t *testing.T, typ nplt.Type, payload []byte) string {
	t.Helper()
	c.send(typ, payload)
	fs := c.reply()
	for _, f := range fs {
		if f.Type == nplt.ToolCall || f.Type == nplt.ToolList {
			t.Fatalf("refused request answered %v", fs)
		}
	}
	return errorCode(t, fs)
}

// TestToolList: TOOL_LIST is answered with the catalog (tools and MCP
// servers) and the end; HELLO announces the feature.
func TestToolList(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	c := dialFrom(t, "127.0.0.1", e.ts.addr)
	fs := c.helloWith(aliceToken)
	var h nplt.HelloReply
	if err := json.Unmarshal(fs[0].Payload, &h); err != nil || !strings.Contains(strings.Join(h.Features, ","), nplt.FeatureTools) {
		t.Fatalf("hello %s %v", fs[0].Payload, err)
	}
	c.reply() // greeting
	c.send(nplt.ToolList, nil)
	var cat api.Catalog
	if err := json.Unmarshal(document(t, c.reply(), nplt.ToolList), &cat); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range cat.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "asked,look,refused,slow" || len(cat.Servers) != 1 || cat.Servers[0].Name != "fs" {
		t.Fatalf("catalog %+v", cat)
	}
	if code := c.refusal(t, nplt.ToolList, []byte("x")); code != api.CodeBadRequest {
		t.Fatalf("payload: %q", code)
	}
}

// bigCatalog has one tool whose description does not fit a frame.
type bigCatalog struct{}

func (bigCatalog) Tools() []api.ToolInfo {
	return []api.ToolInfo{{Name: "big", Description: strings.Repeat("描述", 70000), Parameters: json.RawMessage(`{}`)}}
}
func (bigCatalog) Servers() []api.MCPServerInfo { return nil }

// TestToolListLarge: a catalog over MaxPayload is split over several
// TOOL_LIST frames that concatenate to its JSON; nil servers are [].
func TestToolListLarge(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.Catalog = bigCatalog{} })
	c := dial(t, ts.addr, true)
	c.send(nplt.ToolList, nil)
	fs := c.reply()
	if n := len(fs); n < 5 { // 420 kB: at least 7 frames and the end
		t.Fatalf("%d frames", n)
	}
	var cat api.Catalog
	if err := json.Unmarshal(document(t, fs, nplt.ToolList), &cat); err != nil || len(cat.Tools) != 1 || len(cat.Tools[0].Description) != 6*70000 || cat.Servers == nil {
		t.Fatalf("catalog: %v", err)
	}
}

// TestToolsNotConfigured: without a catalog or a runner both frames get
// not_found, and a client that sent no HELLO is refused in text (it
// cannot receive the reply frames).
func TestToolsNotConfigured(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	if code := c.refusal(t, nplt.ToolList, nil); code != api.CodeNotFound {
		t.Fatalf("list: %q", code)
	}
	if code := c.refusal(t, nplt.ToolCall, []byte(`{"name":"look"}`)); code != api.CodeNotFound {
		t.Fatalf("call: %q", code)
	}
	e := newToolEnv(t) // no tokens: a client may skip HELLO
	p := dial(t, e.ts.addr, false)
	for _, typ := range []nplt.Type{nplt.ToolList, nplt.ToolCall} {
		p.send(typ, []byte(`{"name":"look"}`))
		fs := p.reply()
		if text := replyText(fs); !strings.Contains(text, "错误 ["+api.CodeBadRequest+"]") || !strings.Contains(text, "HELLO") {
			t.Fatalf("%v without HELLO: %v", typ, fs)
		}
	}
	if n := len(e.audit.All()); n != 0 {
		t.Fatalf("%d calls ran", n)
	}
}

// TestToolCallPolicy: a call runs in the connection's conversation for
// its principal, audited as direct from a cli client; one the policy
// asks about runs as approved by the request (decided_by direct); a
// denied one is refused (success false); arguments the schema rejects
// are the tool's error; the same request sent again runs again.
func TestToolCallPolicy(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	alice, sid := login(t, e.ts.addr, aliceToken)
	r := alice.call(t, `{"name":"look","arguments":{"text":"hi"}}`)
	if !r.Success || string(r.Output) != `{"approved":false,"args":{"text":"hi"},"session":"`+sid+`","user":"alice"}` {
		t.Fatalf("look %+v %s", r, r.Output)
	}
	if l := e.audit.Last(t); !l.Direct || l.User != "alice" || l.Role != chat.RoleOperator || l.Client != api.ClientCLI || l.Session != sid {
		t.Fatalf("look record %+v", l)
	}
	r = alice.call(t, `{"name":"asked","arguments":{"text":"hi"}}`)
	if !r.Success || !strings.Contains(string(r.Output), `"approved":true`) {
		t.Fatalf("asked %+v %s", r, r.Output)
	}
	if l := e.audit.Last(t); !l.Direct || l.Decision != "ask" || l.DecidedBy != tools.DecidedByDirect || l.Status != tools.StatusOK {
		t.Fatalf("asked record %+v", l)
	}
	r = alice.call(t, `{"name":"refused"}`)
	if r.Success || !strings.Contains(r.Error, "denied") {
		t.Fatalf("refused %+v", r)
	}
	if l := e.audit.Last(t); !l.Direct || l.Decision != "deny" || l.Status != tools.StatusDenied {
		t.Fatalf("refused record %+v", l)
	}
	r = alice.call(t, `{"name":"look","arguments":{"text":5}}`)
	if r.Success || !strings.Contains(r.Error, "invalid arguments") {
		t.Fatalf("bad arguments %+v", r)
	}
	n := len(e.audit.All())
	for range 2 { // replayed: two calls
		if r := alice.call(t, `{"name":"look","arguments":null}`); !r.Success {
			t.Fatalf("replayed %+v", r)
		}
	}
	if got := len(e.audit.All()); got != n+2 {
		t.Fatalf("%d records after two calls, want %d", got, n+2)
	}
}

// TestToolCallDesktop: the call's client type is the connection's.
func TestToolCallDesktop(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	c := dialFrom(t, "127.0.0.1", e.ts.addr)
	c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "t", ClientType: api.ClientDesktop, Token: aliceToken})
	c.read()  // HELLO reply
	c.reply() // greeting
	if r := c.call(t, `{"name":"look"}`); !r.Success || e.audit.Last(t).Client != api.ClientDesktop {
		t.Fatalf("%+v %+v", r, e.audit.Last(t))
	}
}

// TestToolCallViewer: bob (viewer) runs a read-only tool; what the
// policy would ask about is denied to him, not approved by the request.
func TestToolCallViewer(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	bob, _ := login(t, e.ts.addr, bobToken)
	if r := bob.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("look %+v", r)
	}
	r := bob.call(t, `{"name":"asked"}`)
	if r.Success || strings.Contains(string(r.Output), "approved") {
		t.Fatalf("viewer ran asked: %+v %s", r, r.Output)
	}
	if l := e.audit.Last(t); l.Role != chat.RoleViewer || l.Status != tools.StatusDenied || !l.Direct {
		t.Fatalf("record %+v", l)
	}
}

// TestToolCallBadInput: a payload that is not JSON {"name",…} (trailing
// data too), a field other than name and arguments (named in the
// error), arguments that are not an object, an unknown tool and a payload over 32 KiB are
// answered ERROR and the end, nothing runs, and the connection goes on.
func TestToolCallBadInput(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	alice, _ := login(t, e.ts.addr, aliceToken)
	for _, tc := range []struct{ payload, code string }{
		{`{"name":`, api.CodeBadJSON},
		{``, api.CodeBadJSON},
		{`{"arguments":{}}`, api.CodeBadJSON},
		{`{"name":"look"} {}`, api.CodeBadJSON},
		{`["look"]`, api.CodeBadJSON},
		{`{"name":"look","arguments":[1]}`, api.CodeBadRequest},
		{`{"name":"look","arguments":"text"}`, api.CodeBadRequest},
		{`{"name":"look"} ]`, api.CodeBadJSON},
		{`{"name":"look","argumentz":{}}`, api.CodeBadRequest},
		{`{"name":"look","args":{"text":"x"}}`, api.CodeBadRequest},
		{`{"name":"look","arguments":{},"session_id":"s"}`, api.CodeBadRequest},
		{`{"name":"nope"}`, api.CodeNotFound},
		{`{"name":"look","arguments":{"text":"` + strings.Repeat("a", 40<<10) + `"}}`, api.CodeTooLarge},
	} {
		if code := alice.refusal(t, nplt.ToolCall, []byte(tc.payload)); code != tc.code {
			t.Errorf("%.40s: %q, want %q", tc.payload, code, tc.code)
		}
	}
	alice.send(nplt.ToolCall, []byte(`{"name":"nope"}`))
	var ep nplt.ErrorPayload
	for _, f := range alice.reply() {
		if f.Type == nplt.Error {
			json.Unmarshal(f.Payload, &ep)
		}
	}
	if !strings.Contains(ep.Message, `no such tool: "nope" (TOOL_LIST (/tools) lists them)`) {
		t.Fatalf("unknown tool message %q", ep.Message)
	}
	if _, code, msg := parseToolCall([]byte(`{"name":"look","argumentz":{},"Arguments":{}}`)); code != api.CodeBadRequest || msg != `unknown field "argumentz" (a direct call takes name, arguments)` {
		t.Fatalf("unknown field: %s %q", code, msg)
	}
	if n := len(e.audit.All()); n != 0 {
		t.Fatalf("%d calls ran", n)
	}
	if r := alice.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("after bad input %+v", r)
	}
}

// waitChan waits for ch to close, failing after a generous deadline.
func waitChan(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// TestToolCallSlow: while a direct call runs, the connection answers
// PING, another connection lists and calls tools, and a second
// TOOL_CALL waits its turn. CANCEL applies to the newest request it can
// stop: first the queued call, which then answers, in its place, its
// cancelled result without running (audited as refused by the cancel);
// a second CANCEL stops the running call, whose unsuccessful result
// ends its reply; the next call runs.
func TestToolCallSlow(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	alice, _ := login(t, e.ts.addr, aliceToken)
	alice.send(nplt.ToolCall, []byte(`{"name":"slow"}`))
	waitChan(t, "the slow call to start", e.slow.started)
	alice.send(nplt.ToolCall, []byte(`{"name":"look"}`))
	alice.send(nplt.Ping, []byte("p1"))
	if f := alice.read(); f.Type != nplt.Pong || string(f.Payload) != "p1" {
		t.Fatalf("want PONG, got %v %q", f.Type, f.Payload)
	}
	bob, _ := login(t, e.ts.addr, bobToken)
	if r := bob.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("other connection %+v", r)
	}
	alice.send(nplt.Cancel, nil) // the queued "look"
	alice.send(nplt.Ping, []byte("p2"))
	if f := alice.read(); f.Type != nplt.Pong || string(f.Payload) != "p2" {
		t.Fatalf("want PONG, got %v %q", f.Type, f.Payload)
	}
	select {
	case <-e.slow.stopped:
		t.Fatal("CANCEL for the queued call stopped the running one")
	default:
	}
	alice.send(nplt.Cancel, nil) // the running "slow"
	fs := alice.reply()
	var r api.ToolResult
	if err := json.Unmarshal(document(t, fs, nplt.ToolCall), &r); err != nil || r.Success {
		t.Fatalf("cancelled call %+v %v", r, err)
	}
	waitChan(t, "the slow call to stop", e.slow.stopped)
	fs = alice.reply() // the queued call, cancelled before it ran
	if err := json.Unmarshal(document(t, fs, nplt.ToolCall), &r); err != nil || r.Success || !strings.Contains(r.Error, "cancelled before it ran") {
		t.Fatalf("queued call %+v %v", r, err)
	}
	if rec := e.audit.Last(t); rec.Tool != "look" || rec.Status != tools.StatusDenied || rec.DecidedBy != tools.ByCancel || !rec.Direct || rec.User != "alice" {
		t.Fatalf("queued call's record %+v", rec)
	}
	if r := alice.call(t, `{"name":"look"}`); !r.Success || !strings.Contains(string(r.Output), `"user":"alice"`) {
		t.Fatalf("next call %+v", r)
	}
}

// TestToolCallCancelNothing: a CANCEL with nothing to stop does
// nothing; the next call runs.
func TestToolCallCancelNothing(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	alice, _ := login(t, e.ts.addr, aliceToken)
	alice.send(nplt.Cancel, nil)
	if r := alice.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("call after a CANCEL with nothing to stop %+v", r)
	}
}

// TestToolCallConnectionClosed: closing the connection cancels the
// direct call it runs; other connections are served.
func TestToolCallConnectionClosed(t *testing.T) {
	e := newToolEnv(t, withUsers(t))
	alice, _ := login(t, e.ts.addr, aliceToken)
	alice.send(nplt.ToolCall, []byte(`{"name":"slow"}`))
	waitChan(t, "the slow call to start", e.slow.started)
	alice.nc.Close()
	waitChan(t, "the slow call to be cancelled", e.slow.stopped)
	bob, _ := login(t, e.ts.addr, bobToken)
	if r := bob.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("other connection %+v", r)
	}
}

// TestToolCallStalledFrame: a client that stops sending a TOOL_CALL
// frame mid-way is dropped after StallTimeout, nothing runs, and another
// connection is served.
func TestToolCallStalledFrame(t *testing.T) {
	e := newToolEnv(t, withUsers(t), func(c *Config, _ *chat.Config) { c.StallTimeout = 200 * time.Millisecond })
	alice, _ := login(t, e.ts.addr, aliceToken)
	// A header announcing 100 bytes, and 10 of them.
	if _, err := alice.nc.Write(append([]byte{byte(nplt.ToolCall), 0, 7, 0, 100}, `{"name":"l`...)); err != nil {
		t.Fatal(err)
	}
	alice.expectClosed()
	bob, _ := login(t, e.ts.addr, bobToken)
	if r := bob.call(t, `{"name":"look"}`); !r.Success {
		t.Fatalf("other connection %+v", r)
	}
	if n := len(e.audit.All()); n != 1 {
		t.Fatalf("%d calls ran, want bob's 1", n)
	}
}

// TestToolCallCancelQueuedBehindTurn: a CANCEL sent for a TOOL_CALL
// queued behind a running chat turn reaches the call — answered, in its
// place, cancelled without running — and the turn goes on to its full
// answer.
func TestToolCallCancelQueuedBehindTurn(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Before, ag.After = "partial ", "whole"
	e := newToolEnv(t, withUsers(t), func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	alice, _ := login(t, e.ts.addr, aliceToken)
	alice.send(nplt.ChatText, []byte("long question"))
	<-ag.Started
	alice.send(nplt.ToolCall, []byte(`{"name":"look"}`))
	alice.send(nplt.Cancel, nil)
	alice.send(nplt.Ping, []byte("p"))
	// The PONG says the reader has handled the CANCEL; the turn's first
	// frames come before it.
	for alice.read().Type != nplt.Pong {
	}
	close(ag.Release)
	rest := alice.reply() // the rest of the turn's reply
	if got := replyText(rest); !strings.HasSuffix(got, "whole") {
		t.Fatalf("the turn was cut: %q", got)
	}
	var r api.ToolResult
	if err := json.Unmarshal(document(t, alice.reply(), nplt.ToolCall), &r); err != nil || r.Success || !strings.Contains(r.Error, "cancelled before it ran") {
		t.Fatalf("queued call %+v %v", r, err)
	}
	if rec := e.audit.Last(t); rec.Tool != "look" || rec.DecidedBy != tools.ByCancel {
		t.Fatalf("record %+v", rec)
	}
}
