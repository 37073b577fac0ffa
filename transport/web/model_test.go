package web

import (
	"strings"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
)

// TestModelPersistsWithConversation: a model set over HTTP belongs to
// the conversation: the list shows it and another client (an NPLT
// connection's session) that switches to the conversation uses it.
func TestModelPersistsWithConversation(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	_, body := e.do(t, "POST", "/api/sessions", nil)
	var s sessionReply
	decode(t, body, &s)
	e.do(t, "POST", "/api/sessions/"+s.SessionID+"/model", `{"model":"deepseek"}`)
	if res, _ := e.do(t, "POST", "/api/chat", `{"message":"hi","session_id":"`+s.SessionID+`"}`); res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
	_, body = e.do(t, "GET", "/api/sessions", nil)
	if !strings.Contains(string(body), `"model":"deepseek"`) {
		t.Fatalf("list lacks the conversation's model: %s", body)
	}
	other := e.svc.NewSession("cli", chat.Local())
	if _, err := other.Switch(s.SessionID); err != nil {
		t.Fatal(err)
	}
	if other.Model() != "deepseek" {
		t.Fatalf("another client uses %q, want deepseek", other.Model())
	}
}
