package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
)

// pendingList is the body of GET /api/sessions/{id}/pending.
type pendingList struct {
	Permissions []api.PermissionRequest `json:"permissions"`
	Questions   []api.Question          `json:"questions"`
}

func getPending(t *testing.T, e *testEnv, sid string, hdr ...string) pendingList {
	t.Helper()
	res, body := e.do(t, "GET", "/api/sessions/"+sid+"/pending", nil, hdr...)
	var pl pendingList
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &pl) != nil || pl.Permissions == nil || pl.Questions == nil {
		t.Fatalf("pending: %d %s", res.StatusCode, body)
	}
	return pl
}

// TestHTTPPendingSurvivesReload: a permission request still waiting is
// listed with its event's fields (twice: a replay is harmless); an
// unknown or malformed conversation is 404. The client then leaves (a
// page reload): the turn keeps waiting, the request is still listed, the
// answer reaches it, the turn runs to its end and its answer is in the
// history; nothing is pending after.
func TestHTTPPendingSurvivesReload(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, a, func(c *Config, cc *chat.Config) { c.Logger = zap.New(core); cc.PermissionTimeout = time.Minute })
	st := e.startChat(t, map[string]string{"message": "probe a"})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventPermissionRequest, nil)
	var p api.PermissionRequest
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		pl := getPending(t, e, sid)
		if len(pl.Permissions) != 1 || len(pl.Questions) != 0 {
			t.Fatalf("pending %+v", pl)
		}
		if got := pl.Permissions[0]; got.RequestID != p.RequestID || got.ToolCallID != "call-a" || got.Tool != "probe" ||
			got.ExpiresAt != p.ExpiresAt || string(got.Args) != string(p.Args) || len(got.Options) != 3 {
			t.Fatalf("listed %+v, event %+v", got, p)
		}
	}
	for _, bad := range []string{"nope", strings.Repeat("x", 4000), "%00"} {
		res, body := e.do(t, "GET", "/api/sessions/"+bad+"/pending", nil)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}

	// The page reloads: the stream is gone, the turn waits on.
	st.res.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for logs.FilterMessageSnippet("chat client left while a request waits").Len() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the client leave")
		}
		time.Sleep(5 * time.Millisecond) // polling the log, with a deadline
	}
	if pl := getPending(t, e, sid); len(pl.Permissions) != 1 || pl.Permissions[0].RequestID != p.RequestID {
		t.Fatalf("after the reload: %+v", pl)
	}
	res, body := e.do(t, "POST", "/api/sessions/"+sid+"/permissions/"+p.RequestID, map[string]string{"decision": api.DecisionAllowOnce})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("answer after the reload: %d %s", res.StatusCode, body)
	}
	for {
		res, body := e.do(t, "GET", "/api/sessions/"+sid+"/history", nil)
		if res.StatusCode == http.StatusOK && strings.Contains(string(body), `call-a {\"success\":true`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn's answer never reached the history: %s", body)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if pl := getPending(t, e, sid); len(pl.Permissions) != 0 || len(pl.Questions) != 0 {
		t.Fatalf("pending after the answer: %+v", pl)
	}
	waitFor(t, "the detached turn released its place", func() bool { return e.srv.detached.count() == 0 })
}

// TestHTTPPendingQuestionAndExpiry: a waiting question is listed; a
// question that timed out is not.
func TestHTTPPendingQuestionAndExpiry(t *testing.T) {
	e, _ := askEnv(t, time.Minute)
	st := e.startChat(t, map[string]string{"message": "ask " + choiceArgs})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventQuestion, nil)
	var q api.Question
	json.Unmarshal([]byte(raw), &q)
	pl := getPending(t, e, sid)
	if len(pl.Questions) != 1 || len(pl.Permissions) != 0 || pl.Questions[0].RequestID != q.RequestID || len(pl.Questions[0].Options) != 2 {
		t.Fatalf("pending %+v", pl)
	}
	e.do(t, "POST", "/api/sessions/"+sid+"/questions/"+q.RequestID, map[string]string{"answer": "web-01"})
	st.until(api.EventEnd, nil)

	e, _ = askEnv(t, 20*time.Millisecond)
	st = e.startChat(t, map[string]string{"message": "ask " + choiceArgs})
	start, _ = st.until(api.EventStreamStart, nil)
	sid = start.Data["session_id"].(string)
	st.until(api.EventEnd, nil) // the question timed out
	if pl := getPending(t, e, sid); len(pl.Questions) != 0 || len(pl.Permissions) != 0 {
		t.Fatalf("an expired question is listed: %+v", pl)
	}
	// Nothing pending in a conversation with no turn running.
	res, body := e.do(t, "POST", "/api/sessions", nil)
	var own struct {
		ID string `json:"session_id"`
	}
	json.Unmarshal(body, &own)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("new session %d %s", res.StatusCode, body)
	}
	if pl := getPending(t, e, own.ID); len(pl.Questions) != 0 || len(pl.Permissions) != 0 {
		t.Fatalf("pending in an idle conversation: %+v", pl)
	}
}

// TestHTTPPendingOwnerOnly: bob cannot list alice's pending requests.
func TestHTTPPendingOwnerOnly(t *testing.T) {
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, a, withUsers(twoUsers(t)), func(_ *Config, cc *chat.Config) { cc.PermissionTimeout = time.Minute })
	st := e.chatAs(t, "probe a", bearer(aliceToken)...)
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	st.until(api.EventPermissionRequest, nil)
	res, body := e.do(t, "GET", "/api/sessions/"+sid+"/pending", nil, bearer(bobToken)...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	if pl := getPending(t, e, sid, bearer(aliceToken)...); len(pl.Permissions) != 1 {
		t.Fatalf("alice's pending: %+v", pl)
	}
}
