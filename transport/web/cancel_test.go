package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

// startStream posts a chat message in conversation id and returns the
// open SSE response once the blocking agent started its turn.
func startStream(t *testing.T, e *testEnv, ag *testkit.Blocking, id string, hdr ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", e.ts.URL+"/api/chat", strings.NewReader(`{"message":"long question","session_id":"`+id+`"}`))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != 200 {
		t.Fatalf("chat: %d", res.StatusCode)
	}
	<-ag.Started
	return res
}

// newConversation creates a conversation over the API.
func newConversation(t *testing.T, e *testEnv, hdr ...string) string {
	t.Helper()
	res, body := e.do(t, "POST", "/api/sessions", nil, hdr...)
	var v struct {
		ID string `json:"session_id"`
	}
	decode(t, body, &v)
	if res.StatusCode != http.StatusCreated || v.ID == "" {
		t.Fatalf("new session: %d %s", res.StatusCode, body)
	}
	return v.ID
}

func TestCancelEndsStream(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Before = "partial "
	e := newEnv(t, ag)
	id := newConversation(t, e)
	res := startStream(t, e, ag, id)
	cres, body := e.do(t, "POST", "/api/sessions/"+id+"/cancel", nil)
	if cres.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"cancelled":true}` {
		t.Fatalf("cancel: %d %s", cres.StatusCode, body)
	}
	evs := readSSE(t, res.Body)
	if got := types(evs); got != "stream_start status delta end" && got != "stream_start delta end" {
		t.Fatalf("events %q", got)
	}
	<-ag.Cancelled
	_, body = e.do(t, "GET", "/api/sessions/"+id+"/history", nil)
	var h struct{ Messages []history.Message }
	decode(t, body, &h)
	if len(h.Messages) != 2 || h.Messages[1].Content != "partial " || !h.Messages[1].Cancelled {
		t.Fatalf("history %s", body)
	}
	// No turn now: harmless, and says so.
	cres, body = e.do(t, "POST", "/api/sessions/"+id+"/cancel", `{}`)
	if cres.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"cancelled":false}` {
		t.Fatalf("idle cancel: %d %s", cres.StatusCode, body)
	}
}

func TestCancelBadInput(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.MaxJSONBody = 64 })
	id := newConversation(t, e)
	res, body := e.do(t, "POST", "/api/sessions/no-such-id/cancel", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.do(t, "POST", "/api/sessions/"+id+"/cancel", `{"x":`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	res, body = e.do(t, "POST", "/api/sessions/"+id+"/cancel", `{"x":"`+strings.Repeat("a", 100)+`"}`)
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	res, body = e.do(t, "GET", "/api/sessions/"+id+"/cancel", nil)
	wantError(t, res, body, http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
}

// TestCancelOnlyByOwner: a token holder cannot cancel (nor learn of) a
// turn running in the local operator's conversation.
func TestCancelOnlyByOwner(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.After = "done"
	e := newEnv(t, ag, public)
	other := e.svc.NewSession("cli", chat.Local())
	done := make(chan error, 1)
	go func() {
		done <- other.Chat(context.Background(), "the operator's", func(chat.Event) error { return nil })
	}()
	<-ag.Started
	res, body := e.do(t, "POST", "/api/sessions/"+other.ID()+"/cancel", nil, "Authorization", "Bearer s3cret-token")
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	close(ag.Release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if msgs, _ := other.History(); len(msgs) != 2 || msgs[1].Cancelled || msgs[1].Content != "done" {
		t.Fatalf("history %+v", msgs)
	}
}
