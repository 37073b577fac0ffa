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

// TestModelsListDetails: GET /api/models keeps "models" a list of names
// and adds "details" with provider, model id, base URL and reachability;
// builtin is always reachable.
func TestModelsListDetails(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(_ *Config, cc *chat.Config) {
		cc.ModelInfo = func(name string) chat.ModelInfo {
			return chat.ModelInfo{Provider: "deepseek", Model: "deepseek-chat", BaseURL: "http://127.0.0.1:1/v1", Reason: "connection refused"}
		}
	})
	_, body := e.do(t, "GET", "/api/models", nil)
	var got struct {
		Models  []string         `json:"models"`
		Default string           `json:"default"`
		Details []chat.ModelInfo `json:"details"`
	}
	decode(t, body, &got)
	if len(got.Models) != 2 || len(got.Details) != 2 || got.Default != "builtin" {
		t.Fatalf("%s", body)
	}
	b, d := got.Details[0], got.Details[1]
	if b.Name != "builtin" || !b.Reachable {
		t.Fatalf("builtin %+v", b)
	}
	if d.Name != "deepseek" || d.Model != "deepseek-chat" || d.BaseURL == "" || d.Reachable || d.Reason == "" {
		t.Fatalf("deepseek %+v", d)
	}
}
