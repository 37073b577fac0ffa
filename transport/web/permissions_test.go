package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
)

// sseStream reads a chat stream event by event.
type sseStream struct {
	t   testing.TB
	res *http.Response
	sc  *bufio.Scanner
}

// startChat posts a message and returns its open stream.
func (e *testEnv) startChat(t testing.TB, body any) *sseStream {
	t.Helper()
	j, _ := json.Marshal(body)
	res, err := e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(string(j)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return &sseStream{t: t, res: res, sc: bufio.NewScanner(res.Body)}
}

// next returns the next event; ok is false at the stream's end.
func (s *sseStream) next() (ev sseEvent, raw string, ok bool) {
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			raw = strings.TrimPrefix(line, "data: ")
			json.Unmarshal([]byte(raw), &ev.Data)
		case line == "" && ev.Type != "":
			return ev, raw, true
		}
	}
	return ev, raw, false
}

// until reads to the next event of type typ, collecting deltas.
func (s *sseStream) until(typ string, text *strings.Builder) (sseEvent, string) {
	s.t.Helper()
	for {
		ev, raw, ok := s.next()
		if !ok {
			s.t.Fatalf("stream ended before %s", typ)
		}
		if ev.Type == api.EventDelta && text != nil {
			text.WriteString(ev.Data["text"].(string))
		}
		if ev.Type == typ {
			return ev, raw
		}
	}
}

func askEnv(t *testing.T, timeout time.Duration) (*testEnv, *asktest.Tool) {
	a, probe, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	return newEnv(t, a, func(_ *Config, cc *chat.Config) { cc.PermissionTimeout = timeout }), probe
}

// TestHTTPPermission: the request is an SSE event with the NPLT JSON;
// POST answers it (200), again 409, unknown 404, bad decision 400, bad
// JSON 400, another principal's session 404; allow_session is listed,
// not asked again for its scope, asked for another, and revocable.
func TestHTTPPermission(t *testing.T) {
	env, probe := askEnv(t, time.Minute)
	st := env.startChat(t, map[string]string{"message": "probe a"})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventPermissionRequest, nil)
	var p api.PermissionRequest
	if err := json.Unmarshal([]byte(raw), &p); err != nil || p.ToolCallID != "call-a" || p.Tool != "probe" || len(p.Options) != 3 || p.ExpiresAt == "" {
		t.Fatalf("event %s: %v", raw, err)
	}
	// The reason in both languages for old clients, and each alone.
	if want := `"reason":` + jsonString(asktest.ReasonZh+asktest.ReasonEn) + `,"reason_zh":` + jsonString(asktest.ReasonZh) + `,"reason_en":` + jsonString(asktest.ReasonEn); !strings.Contains(raw, want) {
		t.Fatalf("event %s lacks %s", raw, want)
	}
	base := "/api/sessions/" + sid + "/permissions/"

	res, body := env.do(t, "POST", base+"nope", map[string]string{"decision": "allow_once"})
	wantError(t, res, body, http.StatusNotFound, api.CodePermissionUnknown)
	res, body = env.do(t, "POST", base+p.RequestID, map[string]string{"decision": "always"})
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadDecision)
	res, body = env.do(t, "POST", base+p.RequestID, "{")
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	res, body = env.do(t, "POST", base+p.RequestID, strings.Repeat("x", 2<<20))
	if res.StatusCode != http.StatusRequestEntityTooLarge && res.StatusCode != http.StatusBadRequest {
		t.Fatalf("oversized body: %d %s", res.StatusCode, body)
	}
	res, body = env.do(t, "POST", "/api/sessions/nope/permissions/"+p.RequestID, map[string]string{"decision": "allow_once"})
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	// The history is served while the stream waits.
	if res, body = env.do(t, "GET", "/api/sessions/"+sid+"/history", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("history while waiting: %d %s", res.StatusCode, body)
	}

	res, body = env.do(t, "POST", base+p.RequestID, map[string]string{"decision": api.DecisionAllowSession})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d %s", res.StatusCode, body)
	}
	var text strings.Builder
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), `call-a {"success":true`) {
		t.Fatalf("reply %q", text.String())
	}
	res, body = env.do(t, "POST", base+p.RequestID, map[string]string{"decision": "deny"})
	wantError(t, res, body, http.StatusConflict, api.CodePermissionAnswered)

	// Same scope: not asked. Another: asked.
	st = env.startChat(t, map[string]string{"message": "probe a b", "session_id": sid})
	ev, raw := st.until(api.EventPermissionRequest, nil)
	json.Unmarshal([]byte(raw), &p)
	if p.ToolCallID != "call-b" {
		t.Fatalf("asked %v", ev.Data)
	}
	env.do(t, "POST", base+p.RequestID, map[string]string{"decision": "deny"})
	text.Reset()
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), "declined") || !slices.Equal(probe.Runs(), []string{"a", "a"}) {
		t.Fatalf("reply %q, runs %v", text.String(), probe.Runs())
	}

	var list struct {
		Grants []chat.Grant `json:"grants"`
	}
	res, body = env.do(t, "GET", "/api/sessions/"+sid+"/permissions", nil)
	decode(t, body, &list)
	if res.StatusCode != http.StatusOK || len(list.Grants) != 1 || list.Grants[0].Scope != "probe:a" {
		t.Fatalf("grants %d %s", res.StatusCode, body)
	}
	res, body = env.do(t, "DELETE", "/api/sessions/"+sid+"/permissions/nope", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = env.do(t, "DELETE", "/api/sessions/"+sid+"/permissions/"+list.Grants[0].ID, nil)
	decode(t, body, &list)
	if res.StatusCode != http.StatusOK || len(list.Grants) != 0 {
		t.Fatalf("revoke %d %s", res.StatusCode, body)
	}
}

// TestHTTPPermissionTimeoutAndTwoPending: two requests of one turn
// answered in reverse order; a request not answered in time is denied,
// the model told, and a late answer gets 410.
func TestHTTPPermissionTimeoutAndTwoPending(t *testing.T) {
	env, probe := askEnv(t, time.Minute)
	st := env.startChat(t, map[string]string{"message": "probe a b"})
	start, _ := st.until(api.EventStreamStart, nil)
	base := "/api/sessions/" + start.Data["session_id"].(string) + "/permissions/"
	var p1, p2 api.PermissionRequest
	_, raw := st.until(api.EventPermissionRequest, nil)
	json.Unmarshal([]byte(raw), &p1)
	_, raw = st.until(api.EventPermissionRequest, nil)
	json.Unmarshal([]byte(raw), &p2)
	// The two calls run concurrently, so their requests may arrive in
	// either order: answer by tool call id, the later-arrived one first.
	decision := map[string]string{"call-a": "deny", "call-b": "allow_once"}
	env.do(t, "POST", base+p2.RequestID, map[string]string{"decision": decision[p2.ToolCallID]})
	env.do(t, "POST", base+p1.RequestID, map[string]string{"decision": decision[p1.ToolCallID]})
	var text strings.Builder
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), `call-b {"success":true`) || !slices.Equal(probe.Runs(), []string{"b"}) {
		t.Fatalf("reply %q, runs %v", text.String(), probe.Runs())
	}

	env, _ = askEnv(t, 20*time.Millisecond)
	st = env.startChat(t, map[string]string{"message": "probe a"})
	start, _ = st.until(api.EventStreamStart, nil)
	_, raw = st.until(api.EventPermissionRequest, nil)
	json.Unmarshal([]byte(raw), &p1)
	text.Reset()
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), "did not answer") {
		t.Fatalf("reply %q", text.String())
	}
	res, body := env.do(t, "POST", "/api/sessions/"+start.Data["session_id"].(string)+"/permissions/"+p1.RequestID, map[string]string{"decision": "allow_once"})
	wantError(t, res, body, http.StatusGone, api.CodePermissionExpired)
}

// TestHTTPPermissionAuth: the permission endpoints sit behind the same
// token check as the other session endpoints.
func TestHTTPPermissionAuth(t *testing.T) {
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	env := newEnv(t, a, withTokenOnLoopback)
	for _, r := range [][2]string{{"POST", "/api/sessions/x/permissions/y"}, {"GET", "/api/sessions/x/permissions"}, {"DELETE", "/api/sessions/x/permissions/g"}} {
		res, body := env.do(t, r[0], r[1], map[string]string{"decision": "deny"})
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	}
}

// jsonString is s as a JSON string, HTML characters unescaped.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSpace(b.String())
}
