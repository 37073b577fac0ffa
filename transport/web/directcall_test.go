package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/tools"
)

// byName decides by tool name: "asked" is put at Ask, "refused" denied,
// the rest allowed.
type byName struct{}

func (byName) Decide(_ context.Context, _ *tools.Call, spec tools.Spec, _ json.RawMessage) tools.Verdict {
	switch spec.Name {
	case "asked":
		return tools.Verdict{Decision: tools.Ask, Reason: "sensitive"}
	case "refused":
		return tools.Verdict{Decision: tools.Deny, Reason: "not for you", By: tools.DecidedByRule}
	}
	return tools.Verdict{Decision: tools.Allow}
}

// echoTool answers its arguments, the call's session and whether it was
// approved.
type echoTool struct{ name string }

func (e echoTool) Spec() tools.Spec {
	return tools.Spec{Name: e.name, Description: "echoes", Risk: tools.RiskSensitive,
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func (e echoTool) Run(_ context.Context, call *tools.Call, args json.RawMessage) (any, error) {
	return map[string]any{"args": args, "session": call.SessionID, "approved": call.Approved}, nil
}

// directEnv is a server with users alice and bob whose registry holds
// "echo" (allowed), "asked" (ask) and "refused" (deny).
func directEnv(t *testing.T) (*testEnv, *testkit.Records) {
	t.Helper()
	rec := &testkit.Records{}
	reg := tools.NewRegistry(tools.Config{Policy: byName{}, Audit: rec})
	for _, n := range []string{"echo", "asked", "refused"} {
		if err := reg.Register(echoTool{n}); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)), func(c *Config, _ *chat.Config) { c.Runner = reg; c.MaxJSONBody = 256 })
	return e, rec
}

// result posts a direct call and decodes its 200 answer.
func result(t *testing.T, e *testEnv, path string, reqBody any, hdr ...string) tools.Result {
	t.Helper()
	res, body := e.do(t, "POST", path, reqBody, hdr...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var r tools.Result
	decode(t, body, &r)
	return r
}

// TestDirectCallPolicy: an allowed tool runs; one the policy asks about
// runs as approved by the request, nobody asked, audited decided_by
// "direct" and Direct; a denied one is still refused (200, success
// false); every call is recorded for the caller, as a direct call.
func TestDirectCallPolicy(t *testing.T) {
	e, rec := directEnv(t)
	alice := bearer(aliceToken)
	r := result(t, e, "/api/tools/echo", `{"arguments":{"text":"hi"}}`, alice...)
	if !r.Success || string(r.Output) != `{"approved":false,"args":{"text":"hi"},"session":""}` {
		t.Fatalf("echo %+v %s", r, r.Output)
	}
	if l := rec.Last(t); !l.Direct || l.User != "alice" || l.Role != chat.RoleOperator || l.DecidedBy != tools.DecidedByDefault || l.Client != api.ClientWeb {
		t.Fatalf("echo record %+v", l)
	}
	r = result(t, e, "/api/tools/asked", `{"arguments":{"text":"hi"}}`, alice...)
	if !r.Success || !strings.Contains(string(r.Output), `"approved":true`) {
		t.Fatalf("asked %+v %s", r, r.Output)
	}
	if l := rec.Last(t); !l.Direct || l.Decision != "ask" || l.DecidedBy != tools.DecidedByDirect || l.Status != tools.StatusOK {
		t.Fatalf("asked record %+v", l)
	}
	r = result(t, e, "/api/tools/refused", `{"arguments":{"text":"hi"}}`, alice...)
	if r.Success || !strings.Contains(r.Error, "denied by policy: not for you") {
		t.Fatalf("refused %+v", r)
	}
	if l := rec.Last(t); !l.Direct || l.Decision != "deny" || l.Status != tools.StatusDenied {
		t.Fatalf("refused record %+v", l)
	}
	// Arguments the schema rejects: the tool's error, 200.
	r = result(t, e, "/api/tools/echo", `{"arguments":{"text":5}}`, alice...)
	if r.Success || !strings.Contains(r.Error, "invalid arguments") {
		t.Fatalf("bad arguments %+v", r)
	}
}

// TestDirectCallSession: with the caller's own conversation the call is
// recorded under it; another user's conversation, or an unknown one, is
// 404 and nothing runs.
func TestDirectCallSession(t *testing.T) {
	e, rec := directEnv(t)
	id := newConversation(t, e, bearer(aliceToken)...)
	r := result(t, e, "/api/tools/echo", `{"session_id":"`+id+`","arguments":{"text":"x"}}`, bearer(aliceToken)...)
	if !r.Success || !strings.Contains(string(r.Output), `"session":"`+id+`"`) || rec.Last(t).Session != id {
		t.Fatalf("own session %+v %s", r, r.Output)
	}
	n := len(rec.All())
	for _, sid := range []string{id, "no-such-conversation"} {
		res, body := e.do(t, "POST", "/api/tools/echo", `{"session_id":"`+sid+`","arguments":{"text":"x"}}`, bearer(bobToken)...)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}
	if len(rec.All()) != n {
		t.Fatal("a call ran in another user's conversation")
	}
}

// TestDirectCallBadInput: no credentials 401, an unknown tool 404, a body
// that is not JSON (or has data after it) 400 bad_json, a field other
// than session_id and arguments or arguments that are not an object 400
// bad_request, a body over MaxJSONBody 413; none of them runs anything;
// no body at all is a call without arguments.
func TestDirectCallBadInput(t *testing.T) {
	e, rec := directEnv(t)
	alice := bearer(aliceToken)
	res, body := e.do(t, "POST", "/api/tools/echo", `{"arguments":{"text":"x"}}`)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	res, body = e.do(t, "POST", "/api/tools/nope", `{"arguments":{}}`, alice...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.do(t, "POST", "/api/tools/echo", `{"arguments":`, alice...)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	for _, a := range []string{`[1]`, `"text"`, `5`} {
		res, body = e.do(t, "POST", "/api/tools/echo", `{"arguments":`+a+`}`, alice...)
		wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	}
	// Unknown fields are refused, named, not run with {}; trailing
	// data after the body is bad_json.
	for _, b := range []string{`{"argumentz":{}}`, `{"args":{"text":"x"}}`, `{"name":"echo","arguments":{"text":"x"}}`} {
		res, body = e.do(t, "POST", "/api/tools/echo", b, alice...)
		wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
		if !strings.Contains(string(body), `unknown field`) || !strings.Contains(string(body), `a direct call takes session_id, arguments`) {
			t.Errorf("%s: %s", b, body)
		}
	}
	res, body = e.do(t, "POST", "/api/tools/echo", `{"argumentz":{},"args":{}}`, alice...)
	if wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest); !strings.Contains(string(body), `unknown fields \"args\", \"argumentz\"`) {
		t.Errorf("two unknown fields: %s", body)
	}
	for _, b := range []string{`{"arguments":{"text":"x"}} ]`, `{"arguments":{"text":"x"}}{}`, `{} x`} {
		res, body = e.do(t, "POST", "/api/tools/echo", b, alice...)
		wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	}
	res, body = e.do(t, "POST", "/api/tools/echo", `{"arguments":{"text":"`+strings.Repeat("a", 300)+`"}}`, alice...)
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	if n := len(rec.All()); n != 0 {
		t.Fatalf("%d calls ran", n)
	}
	// No body: arguments {}, which the schema rejects (text is required).
	r := result(t, e, "/api/tools/echo", nil, alice...)
	if r.Success || !strings.Contains(r.Error, "invalid arguments") {
		t.Fatalf("no body %+v", r)
	}
	// Without a runner the endpoint is 404.
	off := newEnv(t, testkit.Scripted{})
	res, body = off.do(t, "POST", "/api/tools/echo", `{}`)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}

// oneCall allows each user one call.
type oneCall struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (o *oneCall) Allow(user, tool string) (bool, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[user] {
		return false, "rate limit: one call per user."
	}
	o.seen[user] = true
	return true, ""
}

// TestDirectCallRateLimitedAndReplayed: the same request sent again is
// a second call, counted by the rate limiter like the model's calls:
// refused (200, success false, decided_by rate_limit) for that user
// only.
func TestDirectCallRateLimitedAndReplayed(t *testing.T) {
	rec := &testkit.Records{}
	reg := tools.NewRegistry(tools.Config{Policy: byName{}, Audit: rec, Limiter: &oneCall{seen: map[string]bool{}}})
	if err := reg.Register(echoTool{"echo"}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)), func(c *Config, _ *chat.Config) { c.Runner = reg })
	req := `{"arguments":{"text":"again"}}`
	if r := result(t, e, "/api/tools/echo", req, bearer(aliceToken)...); !r.Success {
		t.Fatalf("first %+v", r)
	}
	r := result(t, e, "/api/tools/echo", req, bearer(aliceToken)...)
	if r.Success || !strings.Contains(r.Error, "rate limit") || rec.Last(t).DecidedBy != tools.DecidedByRateLimit || !rec.Last(t).Direct {
		t.Fatalf("replayed %+v %+v", r, rec.Last(t))
	}
	if r := result(t, e, "/api/tools/echo", req, bearer(bobToken)...); !r.Success {
		t.Fatalf("bob %+v", r)
	}
}

// TestDirectCallStalledBody: a client that stops sending its body mid-way
// is answered and dropped after StallTimeout; nothing runs.
func TestDirectCallStalledBody(t *testing.T) {
	rec := &testkit.Records{}
	reg := tools.NewRegistry(tools.Config{Policy: byName{}, Audit: rec})
	if err := reg.Register(echoTool{"echo"}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Runner, c.StallTimeout = reg, 200*time.Millisecond })
	nc, err := net.Dial("tcp", e.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	fmt.Fprintf(nc, "POST /api/tools/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"arguments\":{\"te")
	nc.SetReadDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReader(nc)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !res.Close {
		t.Fatalf("status %d, close %v", res.StatusCode, res.Close)
	}
	if len(rec.All()) != 0 {
		t.Fatal("a call ran")
	}
}
