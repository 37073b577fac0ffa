package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
)

// clock is an adjustable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testEnv is a web Server behind a real listener on 127.0.0.1.
type testEnv struct {
	srv    *Server
	ts     *httptest.Server
	svc    *chat.Service
	tokens *tokens.Store
	clock  *clock
	dir    string
}

type envOpt func(*Config, *chat.Config)

func newEnv(t testing.TB, ag chat.Agent, opts ...envOpt) *testEnv {
	t.Helper()
	dir := t.TempDir()
	log := zaptest.NewLogger(t)
	hist, err := history.Open(filepath.Join(dir, "history"), log)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	cc := chat.Config{History: hist, Uploads: ups, Agent: ag, Models: []string{"builtin", "deepseek"}, Logger: log}
	clk := &clock{now: time.Now()}
	toks := tokens.NewStore(time.Minute)
	wc := Config{Tokens: toks, Version: "test", Logger: log, Now: clk.Now}
	for _, o := range opts {
		o(&wc, &cc)
	}
	svc, err := chat.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	wc.Chat = svc
	srv, err := New(wc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Config = srv.http
	ts.Start()
	t.Cleanup(func() {
		// As Server.Shutdown does: a turn still waiting for a person
		// (detached from its gone client, chat.go) ends at once.
		svc.WithdrawRequests()
		ts.Close()
		srv.detached.close(context.Background()) // the detached turns ended
		svc.Close(context.Background())
	})
	return &testEnv{srv: srv, ts: ts, svc: svc, tokens: toks, clock: clk, dir: dir}
}

// do sends a request with an optional JSON body and returns the response
// with its body read.
func (e *testEnv) do(t testing.TB, method, path string, body any, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = strings.NewReader(string(b))
	default:
		j, _ := json.Marshal(b)
		rd = strings.NewReader(string(j))
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// wantError checks a JSON error response.
func wantError(t testing.TB, res *http.Response, body []byte, status int, code string) {
	t.Helper()
	var e struct{ Code, Message string }
	if res.StatusCode != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
		json.Unmarshal(body, &e) != nil || e.Code != code || e.Message == "" {
		t.Fatalf("got %d %q %s, want %d code %q", res.StatusCode, res.Header.Get("Content-Type"), body, status, code)
	}
	if internalPrefix.MatchString(e.Message) {
		t.Fatalf("message %q carries a package prefix", e.Message)
	}
}

// internalPrefix finds a package prefix ("history: ") no error message
// may carry.
var internalPrefix = regexp.MustCompile(`(^|[\s(:])(history|chat|uploads|client|pathguard|nplt|rdt|web|npltserver|tokens|toolcall|policy|tools|agent|llm|index|indexer|ingest): `)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	Type string
	Data map[string]any
}

// readSSE parses an event stream to its end.
func readSSE(t testing.TB, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	var cur sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data); err != nil {
				t.Fatalf("bad data line %q", line)
			}
		case line == "":
			if cur.Type != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		}
	}
	return out
}

func types(evs []sseEvent) string {
	var ts []string
	for _, e := range evs {
		ts = append(ts, e.Type)
	}
	return strings.Join(ts, " ")
}

// decode unmarshals a JSON body.
func decode(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

func mustRequest(t testing.TB, method, path string) *http.Request {
	t.Helper()
	return httptest.NewRequest(method, path, nil)
}
