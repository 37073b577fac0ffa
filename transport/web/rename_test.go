package web

import (
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

type titled struct {
	SessionID string `json:"session_id"`
	Title     string `json:"title"`
}

// TestRenameSession: PATCH /api/sessions/{id} sets the title the list
// shows and the history file keeps; the same request again (a replay) is
// harmless; "" restores the derived title.
func TestRenameSession(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	id := newConversation(t, e)
	res, body := e.do(t, "PATCH", "/api/sessions/"+id, `{"title":"  磁盘告警  "}`)
	var v titled
	decode(t, body, &v)
	if res.StatusCode != http.StatusOK || v.SessionID != id || v.Title != "磁盘告警" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if res, body = e.do(t, "PATCH", "/api/sessions/"+id[:8], `{"title":"磁盘告警"}`); res.StatusCode != http.StatusOK {
		t.Fatalf("replay %d %s", res.StatusCode, body)
	}
	_, body = e.do(t, "GET", "/api/sessions", nil)
	if strings.Count(string(body), id) != 1 || !strings.Contains(string(body), `"title":"磁盘告警"`) {
		t.Fatalf("list %s", body)
	}
	h, err := history.Open(e.dir+"/history", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := h.Get(id); err != nil || c.Summary().Title != "磁盘告警" {
		t.Fatalf("not persisted: %v", err)
	}
	res, _ = e.do(t, "POST", "/api/chat", `{"message":"why is disk full","session_id":"`+id+`"}`)
	if res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode)
	}
	_, body = e.do(t, "PATCH", "/api/sessions/"+id, `{"title":""}`)
	decode(t, body, &v)
	if v.Title != "why is disk full" {
		t.Fatalf("derived title not restored: %s", body)
	}
}

// TestRenameSessionBadInput: malformed, trailing-data, oversized and
// title-less bodies are 400/413; a bad title is 400 in the title's
// language; an unknown id is 404; nothing is renamed.
func TestRenameSessionBadInput(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.MaxJSONBody = 512 })
	id := newConversation(t, e)
	p := "/api/sessions/" + id
	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{`nope`, http.StatusBadRequest, api.CodeBadJSON},
		{``, http.StatusBadRequest, api.CodeBadJSON},
		{`{"title":"a"} {}`, http.StatusBadRequest, api.CodeBadJSON},
		{`{"title":7}`, http.StatusBadRequest, api.CodeBadJSON},
		{`{}`, http.StatusBadRequest, api.CodeBadRequest},
		{`{"title":"` + strings.Repeat("x", 600) + `"}`, http.StatusRequestEntityTooLarge, api.CodeTooLarge},
		{`{"title":"two\nlines"}`, http.StatusBadRequest, api.CodeBadRequest},
		{`{"title":"` + strings.Repeat("x", chat.MaxTitle+1) + `"}`, http.StatusBadRequest, api.CodeBadRequest},
	} {
		res, body := e.do(t, "PATCH", p, tc.body)
		wantError(t, res, body, tc.status, tc.code)
	}
	res, body := e.do(t, "PATCH", p, `{"title":"标题\u001b[31m"}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	if !strings.Contains(string(body), "标题只能是一行") {
		t.Fatalf("not in the title's language: %s", body)
	}
	res, body = e.do(t, "PATCH", "/api/sessions/00000000-0000-4000-8000-000000000000", `{"title":"x"}`)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	if _, body = e.do(t, "GET", p, nil); !strings.Contains(string(body), `"title":""`) {
		t.Fatalf("renamed anyway: %s", body)
	}
}

// TestRenameOtherUsersSession: bob cannot rename alice's conversation
// (404, as if it did not exist); alice can.
func TestRenameOtherUsersSession(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)))
	id := newConversation(t, e, bearer(aliceToken)...)
	res, body := e.do(t, "PATCH", "/api/sessions/"+id, `{"title":"mine now"}`, bearer(bobToken)...)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.do(t, "PATCH", "/api/sessions/"+id, `{"title":"alice's"}`, bearer(aliceToken)...)
	var v titled
	decode(t, body, &v)
	if res.StatusCode != http.StatusOK || v.Title != "alice's" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if _, body = e.do(t, "GET", "/api/sessions", nil, bearer(bobToken)...); strings.Contains(string(body), id) {
		t.Fatalf("bob lists alice's conversation: %s", body)
	}
}
