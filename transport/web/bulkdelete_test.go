package web

import (
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

type bulkReply struct {
	Deleted []struct {
		SessionID string `json:"session_id"`
	} `json:"deleted"`
	NotFound []string `json:"not_found"`
}

// TestBulkDelete: POST /api/sessions/delete deletes saved and new
// conversations; unknown ids (and a replay) come back in not_found.
func TestBulkDelete(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	saved := newConversation(t, e)
	if res, _ := e.do(t, "POST", "/api/chat", `{"message":"hi","session_id":"`+saved+`"}`); res.StatusCode != http.StatusOK {
		t.Fatal(res.StatusCode)
	}
	fresh := newConversation(t, e)
	keep := newConversation(t, e)
	body := `{"ids":["` + saved + `","` + fresh + `","no-such"]}`
	res, b := e.do(t, "POST", "/api/sessions/delete", body)
	var v bulkReply
	decode(t, b, &v)
	if res.StatusCode != http.StatusOK || len(v.Deleted) != 2 || v.Deleted[0].SessionID != saved || v.Deleted[1].SessionID != fresh ||
		len(v.NotFound) != 1 || v.NotFound[0] != "no-such" {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	_, b = e.do(t, "GET", "/api/sessions", nil)
	if strings.Contains(string(b), saved) || strings.Contains(string(b), fresh) || !strings.Contains(string(b), keep) {
		t.Fatalf("list %s", b)
	}
	res, b = e.do(t, "POST", "/api/sessions/delete", body) // replayed
	v = bulkReply{}
	decode(t, b, &v)
	if res.StatusCode != http.StatusOK || len(v.Deleted) != 0 || len(v.NotFound) != 3 {
		t.Fatalf("replay %d %s", res.StatusCode, b)
	}
}

// TestBulkDeleteBadInput: malformed, empty, oversized and too-long
// requests delete nothing; another user's ids are not_found.
func TestBulkDeleteBadInput(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withUsers(twoUsers(t)), func(c *Config, _ *chat.Config) { c.MaxJSONBody = 8 << 10 })
	alice := bearer(aliceToken)
	id := newConversation(t, e, alice...)
	e.do(t, "POST", "/api/chat", `{"message":"hi","session_id":"`+id+`"}`, alice...)
	many := `{"ids":[` + strings.Repeat(`"x",`, maxBulkDelete) + `"x"]}`
	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{`nope`, http.StatusBadRequest, api.CodeBadJSON},
		{``, http.StatusBadRequest, api.CodeBadJSON},
		{`{"ids":"` + id + `"}`, http.StatusBadRequest, api.CodeBadJSON},
		{`{"ids":[]}`, http.StatusBadRequest, api.CodeBadRequest},
		{`{}`, http.StatusBadRequest, api.CodeBadRequest},
		{many, http.StatusBadRequest, api.CodeBadRequest},
		{`{"ids":["` + strings.Repeat("x", 9000) + `"]}`, http.StatusRequestEntityTooLarge, api.CodeTooLarge},
	} {
		res, b := e.do(t, "POST", "/api/sessions/delete", tc.body, alice...)
		wantError(t, res, b, tc.status, tc.code)
	}
	res, b := e.do(t, "POST", "/api/sessions/delete", `{"ids":["`+id+`"]}`, bearer(bobToken)...)
	var v bulkReply
	decode(t, b, &v)
	if res.StatusCode != http.StatusOK || len(v.Deleted) != 0 || len(v.NotFound) != 1 {
		t.Fatalf("bob: %d %s", res.StatusCode, b)
	}
	if _, b = e.do(t, "GET", "/api/sessions", nil, alice...); !strings.Contains(string(b), id) {
		t.Fatalf("alice's conversation gone: %s", b)
	}
}
