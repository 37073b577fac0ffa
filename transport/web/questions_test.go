package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/asktest"
)

const choiceArgs = `{"question":"哪台主机？","kind":"choice","options":[{"id":"web-01","label":"web-01","recommended":true},{"id":"web-02","label":"web-02"}]}`

// TestHTTPQuestion: ask_user's question is an SSE event with the NPLT
// JSON; a bad answer is 400 and the question stays open; unknown 404,
// bad JSON 400, another session 404; the option id answers it (200)
// and the model reads it; again 409.
func TestHTTPQuestion(t *testing.T) {
	env, _ := askEnv(t, time.Minute)
	st := env.startChat(t, map[string]string{"message": "ask " + choiceArgs})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventQuestion, nil)
	var q api.Question
	if err := json.Unmarshal([]byte(raw), &q); err != nil || q.Kind != api.QuestionChoice || len(q.Options) != 2 || !q.Options[0].Recommended || q.ExpiresAt == "" || q.RequestID == "" {
		t.Fatalf("event %s: %v", raw, err)
	}
	base := "/api/sessions/" + sid + "/questions/"
	res, body := env.do(t, "POST", base+"nope", map[string]string{"answer": "web-01"})
	wantError(t, res, body, http.StatusNotFound, api.CodeQuestionUnknown)
	res, body = env.do(t, "POST", base+q.RequestID, map[string]string{"answer": "web-09"})
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadAnswer)
	res, body = env.do(t, "POST", base+q.RequestID, map[string]string{})
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadAnswer)
	res, body = env.do(t, "POST", base+q.RequestID, "{")
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	res, body = env.do(t, "POST", base+q.RequestID, strings.Repeat("x", 2<<20))
	if res.StatusCode != http.StatusRequestEntityTooLarge && res.StatusCode != http.StatusBadRequest {
		t.Fatalf("oversized body: %d %s", res.StatusCode, body)
	}
	res, body = env.do(t, "POST", "/api/sessions/nope/questions/"+q.RequestID, map[string]string{"answer": "web-01"})
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	// A permission answer to a question's id is unknown.
	res, body = env.do(t, "POST", "/api/sessions/"+sid+"/permissions/"+q.RequestID, map[string]string{"decision": "allow_once"})
	wantError(t, res, body, http.StatusNotFound, api.CodePermissionUnknown)

	res, body = env.do(t, "POST", base+q.RequestID, map[string]string{"answer": "web-02"})
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"answer":"web-02"`) {
		t.Fatalf("answer: %d %s", res.StatusCode, body)
	}
	var text strings.Builder
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), `call-ask {"success":true,"output":{"answer":"web-02","option":"web-02","answered_by":"user"}`) {
		t.Fatalf("reply %q", text.String())
	}
	res, body = env.do(t, "POST", base+q.RequestID, map[string]string{"answer": "web-01"})
	wantError(t, res, body, http.StatusConflict, api.CodeQuestionAnswered)
}

// TestHTTPQuestionTimeoutAndCancel: no answer and no default tells the
// model nobody answered, and a late answer is 410; cancel withdraws a
// question (410 after).
func TestHTTPQuestionTimeoutAndCancel(t *testing.T) {
	env, _ := askEnv(t, 20*time.Millisecond)
	st := env.startChat(t, map[string]string{"message": "ask " + choiceArgs})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventQuestion, nil)
	var q api.Question
	json.Unmarshal([]byte(raw), &q)
	var text strings.Builder
	st.until(api.EventEnd, &text)
	if !strings.Contains(text.String(), `"answered_by":"timeout"`) {
		t.Fatalf("reply %q", text.String())
	}
	res, body := env.do(t, "POST", "/api/sessions/"+sid+"/questions/"+q.RequestID, map[string]string{"answer": "web-01"})
	wantError(t, res, body, http.StatusGone, api.CodeQuestionExpired)

	env, _ = askEnv(t, time.Minute)
	st = env.startChat(t, map[string]string{"message": "ask " + choiceArgs})
	start, _ = st.until(api.EventStreamStart, nil)
	sid = start.Data["session_id"].(string)
	_, raw = st.until(api.EventQuestion, nil)
	json.Unmarshal([]byte(raw), &q)
	if res, body := env.do(t, "POST", "/api/sessions/"+sid+"/cancel", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("cancel: %d %s", res.StatusCode, body)
	}
	st.until(api.EventEnd, nil)
	res, body = env.do(t, "POST", "/api/sessions/"+sid+"/questions/"+q.RequestID, map[string]string{"answer": "web-01"})
	wantError(t, res, body, http.StatusGone, api.CodeQuestionExpired)
}

// TestHTTPQuestionAuth: the answer endpoint sits behind the token check.
func TestHTTPQuestionAuth(t *testing.T) {
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	env := newEnv(t, a, withTokenOnLoopback)
	res, body := env.do(t, "POST", "/api/sessions/x/questions/y", map[string]string{"answer": "a"})
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
}
