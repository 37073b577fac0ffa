package web

import (
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

type sessionReply struct {
	SessionID string `json:"session_id"`
	Messages  int    `json:"messages"`
	Model     string `json:"model"`
}

func TestSessions(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "POST", "/api/sessions", nil)
	var s sessionReply
	decode(t, body, &s)
	if res.StatusCode != http.StatusCreated || s.SessionID == "" || s.Model != "builtin" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	// A new, empty conversation is listed and addressable before it is
	// saved.
	_, body = e.do(t, "GET", "/api/sessions", nil)
	if !strings.Contains(string(body), s.SessionID) {
		t.Fatalf("list %s", body)
	}
	res, body = e.do(t, "POST", "/api/sessions/"+s.SessionID+"/model", `{"model":"deepseek"}`)
	decode(t, body, &s)
	if res.StatusCode != 200 || s.Model != "deepseek" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	res, body = e.do(t, "POST", "/api/sessions/"+s.SessionID+"/model", `{"model":"gpt-99"}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeUnknownModel)
	res, body = e.do(t, "POST", "/api/sessions/"+s.SessionID+"/model", `nope`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)

	res, _ = e.do(t, "POST", "/api/chat", `{"message":"hi","session_id":"`+s.SessionID+`"}`)
	if res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
	_, body = e.do(t, "GET", "/api/sessions/"+s.SessionID[:8], nil) // a unique prefix works
	decode(t, body, &s)
	if s.Messages != 2 || s.Model != "deepseek" {
		t.Fatalf("after chat %s", body)
	}
	_, body = e.do(t, "GET", "/api/sessions", nil)
	if strings.Count(string(body), s.SessionID) != 1 {
		t.Fatalf("listed twice: %s", body)
	}
	res, body = e.do(t, "POST", "/api/sessions/"+s.SessionID+"/clear", nil)
	decode(t, body, &s)
	if res.StatusCode != 200 || s.Messages != 0 {
		t.Fatalf("clear %d %s", res.StatusCode, body)
	}
	res, body = e.do(t, "DELETE", "/api/sessions/"+s.SessionID, nil)
	if res.StatusCode != 200 || !strings.Contains(string(body), s.SessionID) {
		t.Fatalf("delete %d %s", res.StatusCode, body)
	}
	for _, p := range []string{"/api/sessions/" + s.SessionID, "/api/sessions/" + s.SessionID + "/history"} {
		res, body = e.do(t, "GET", p, nil)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}
	res, body = e.do(t, "DELETE", "/api/sessions/"+s.SessionID, nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)

	// An unsaved conversation is deleted from the cache.
	_, body = e.do(t, "POST", "/api/sessions", `{"model":"deepseek"}`)
	decode(t, body, &s)
	if res, _ := e.do(t, "DELETE", "/api/sessions/"+s.SessionID, nil); res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
	if _, body = e.do(t, "GET", "/api/sessions", nil); strings.Contains(string(body), s.SessionID) {
		t.Fatalf("deleted session listed: %s", body)
	}
	res, body = e.do(t, "POST", "/api/sessions", `{"model":"gpt-99"}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeUnknownModel)
	_, body = e.do(t, "GET", "/api/models", nil)
	if !strings.Contains(string(body), `"models":["builtin","deepseek"]`) {
		t.Fatalf("models %s", body)
	}
}

func TestSessionCacheIsBounded(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Sessions = 2 })
	var ids []string
	for range 3 {
		_, body := e.do(t, "POST", "/api/sessions", nil)
		var s sessionReply
		decode(t, body, &s)
		ids = append(ids, s.SessionID)
	}
	// The oldest, never saved, was evicted; the newer ones remain.
	res, body := e.do(t, "GET", "/api/sessions/"+ids[0], nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	if res, _ := e.do(t, "GET", "/api/sessions/"+ids[2], nil); res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
}
