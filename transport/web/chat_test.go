package web

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

func TestHealth(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) {
		c.Components = func() map[string]string { return map[string]string{"nplt": "ok", "llm": "builtin"} }
	})
	e.clock.Add(3 * time.Second)
	res, body := e.do(t, "GET", "/api/health", nil)
	var h struct {
		Status     string            `json:"status"`
		Version    string            `json:"version"`
		UptimeS    int64             `json:"uptime_s"`
		Components map[string]string `json:"components"`
	}
	decode(t, body, &h)
	if res.StatusCode != 200 || h.Status != "ok" || h.Version != "test" || h.UptimeS != 3 || h.Components["nplt"] != "ok" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
}

func TestChatStreamsEvents(t *testing.T) {
	e := newEnv(t, testkit.Scripted{Offer: func(t *chat.Turn) *api.Offer {
		if !strings.HasPrefix(t.Input, "offer") {
			return nil
		}
		return &api.Offer{TransportMode: "http", DownloadToken: "abc", Filename: "a.txt", FileSize: 3}
	}})
	res, err := e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(`{"message":"CPU?"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") || res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("headers %v", res.Header)
	}
	evs := readSSE(t, res.Body)
	res.Body.Close()
	if got := types(evs); got != "stream_start status delta delta delta end" {
		t.Fatalf("events %s", got)
	}
	id, _ := evs[0].Data["session_id"].(string)
	if id == "" || evs[1].Data["type"] != "thinking" || evs[2].Data["text"] != "CPU " {
		t.Fatalf("events %+v", evs)
	}

	// The same conversation continues, and an offer without a URL gets
	// the server's download path.
	res, err = e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(`{"message":"offer it","session_id":"`+id+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	evs = readSSE(t, res.Body)
	res.Body.Close()
	if got := types(evs); got != "stream_start status delta delta delta download_offer end" || evs[0].Data["session_id"] != id {
		t.Fatalf("events %s %+v", got, evs[0])
	}
	if o := evs[5].Data; o["download_url"] != "/api/files/download/abc" || o["filename"] != "a.txt" || o["transport_mode"] != "http" {
		t.Fatalf("offer %+v", o)
	}
	_, body := e.do(t, "GET", "/api/sessions/"+id+"/history", nil)
	var h struct {
		SessionID string `json:"session_id"`
		Messages  []struct{ Role, Content string }
	}
	decode(t, body, &h)
	if h.SessionID != id || len(h.Messages) != 4 || h.Messages[2].Content != "offer it" {
		t.Fatalf("history %s", body)
	}
}

func TestChatBadInput(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.MaxJSONBody = 100 })
	res, body := e.do(t, "POST", "/api/chat", `{"message":`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	res, body = e.do(t, "POST", "/api/chat", `{"message":"a"} {"x":1}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadJSON)
	res, body = e.do(t, "POST", "/api/chat", `{"message":"  "}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.do(t, "POST", "/api/chat", `{"message":"hi","client_type":"robot"}`)
	wantError(t, res, body, http.StatusBadRequest, api.CodeBadRequest)
	res, body = e.do(t, "POST", "/api/chat", `{"message":"hi","session_id":"no-such-session"}`)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	res, body = e.do(t, "POST", "/api/chat", `{"message":"`+strings.Repeat("x", 200)+`"}`)
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	res, body = e.do(t, "PUT", "/api/chat", `{}`)
	wantError(t, res, body, http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
	res, body = e.do(t, "GET", "/api/nothing", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}

func TestClientDisconnectCancelsTurn(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Status = "waiting"
	e := newEnv(t, ag)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", e.ts.URL+"/api/chat", strings.NewReader(`{"message":"wait"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	select {
	case <-ag.Started:
	case <-time.After(time.Minute):
		t.Fatal("turn did not start")
	}
	cancel() // the browser tab closes
	select {
	case <-ag.Cancelled:
	case <-time.After(time.Minute):
		t.Fatal("turn not cancelled after the client left")
	}
}

func TestPanicBecomesJSON500(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	h := e.srv.guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("secret detail") }))
	rec := newRecorder()
	h.ServeHTTP(rec, mustRequest(t, "GET", "/x"))
	res := rec.Result()
	body := rec.Body.Bytes()
	wantError(t, res, body, http.StatusInternalServerError, api.CodeInternal)
	if strings.Contains(string(body), "secret") || strings.Contains(string(body), "goroutine") {
		t.Fatalf("panic detail leaked: %s", body)
	}
}

func TestMetricsEndpoint(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) {
		c.Metrics = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("opsassist_chats_total 1\n")) })
	})
	res, body := e.do(t, "GET", "/metrics", nil)
	if res.StatusCode != 200 || !strings.Contains(string(body), "opsassist_chats_total") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
}

func TestPageIsServed(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "GET", "/", nil, "Origin", "http://evil.example")
	if res.StatusCode != 200 || !strings.Contains(string(body), "/static/app.js") ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("CORS header on a closed server")
	}
	for _, p := range []string{"/static/app.js", "/static/markdown.js", "/static/style.css"} {
		if res, _ := e.do(t, "GET", p, nil); res.StatusCode != 200 {
			t.Fatalf("%s: %d", p, res.StatusCode)
		}
	}
}

// gated is an Agent whose turns wait for a release, counting how many
// run at once.
type gated struct {
	mu       sync.Mutex
	active   int
	max      int
	started  chan struct{}
	releases chan struct{}
}

func (g *gated) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	g.mu.Lock()
	g.active++
	g.max = max(g.max, g.active)
	g.mu.Unlock()
	defer func() { g.mu.Lock(); g.active--; g.mu.Unlock() }()
	g.started <- struct{}{}
	select {
	case <-g.releases:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.Delta("done " + t.Input)
	return []history.Message{{Role: "assistant", Content: "done " + t.Input, Time: t.Now}}, nil
}

func TestTurnsInOneConversationAreSerialised(t *testing.T) {
	g := &gated{started: make(chan struct{}, 2), releases: make(chan struct{})}
	e := newEnv(t, g, func(c *Config, _ *chat.Config) { c.KeepAlive = 5 * time.Millisecond })
	_, body := e.do(t, "POST", "/api/sessions", nil)
	var s sessionReply
	decode(t, body, &s)
	open := func(msg string) *bufio.Reader {
		res, err := e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json",
			strings.NewReader(`{"message":"`+msg+`","session_id":"`+s.SessionID+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return bufio.NewReader(res.Body)
	}
	first := open("one")
	<-g.started
	second := open("two")
	// The second stream is live (keep-alive comments) while its turn
	// waits for the first.
	for {
		line, err := second.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == ": keep-alive\n" {
			break
		}
		if strings.HasPrefix(line, "event: stream_start") {
			t.Fatal("second turn started while the first runs")
		}
	}
	g.releases <- struct{}{}
	if evs := readSSE(t, first); types(evs) != "stream_start delta end" {
		t.Fatalf("first %s", types(evs))
	}
	<-g.started
	g.releases <- struct{}{}
	if evs := readSSE(t, second); types(evs) != "stream_start delta end" || evs[1].Data["text"] != "done two" {
		t.Fatalf("second %s", types(evs))
	}
	g.mu.Lock()
	most := g.max
	g.mu.Unlock()
	if most != 1 {
		t.Fatalf("%d turns ran at once", most)
	}
	_, body = e.do(t, "GET", "/api/sessions/"+s.SessionID+"/history", nil)
	if !strings.Contains(string(body), `"done one"`) || strings.Index(string(body), "done one") > strings.Index(string(body), "done two") {
		t.Fatalf("history %s", body)
	}
}

func TestShutdownCancelsTurnsAfterGrace(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Status = "waiting"
	e := newEnv(t, ag)
	res, err := e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(`{"message":"wait"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	<-ag.Started
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := e.srv.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("shutdown: %v", err)
	}
	select {
	case <-ag.Cancelled:
	case <-time.After(time.Minute):
		t.Fatal("turn still running after shutdown gave up")
	}
}
