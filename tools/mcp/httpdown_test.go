package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// httpMCP serves an MCP server over streamable HTTP on 127.0.0.1; kill
// closes its listener and every connection at once, as when the
// process dies, and revive serves a new one (no session known) on the
// same address.
type httpMCP struct {
	t    *testing.T
	addr string
	hs   *http.Server
}

func newHTTPMCP(t *testing.T) *httpMCP {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &httpMCP{t: t, addr: ln.Addr().String()}
	m.serve(ln)
	t.Cleanup(func() { m.hs.Close() })
	return m
}

func (m *httpMCP) serve(ln net.Listener) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "http", Version: "1"}, nil)
	echoTool(srv, "", nil)
	m.hs = &http.Server{Handler: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)}
	go m.hs.Serve(ln)
}

func (m *httpMCP) url() string { return "http://" + m.addr + "/mcp" }

func (m *httpMCP) kill() { m.hs.Close() }

func (m *httpMCP) revive() {
	ln, err := net.Listen("tcp", m.addr)
	if err != nil {
		m.t.Fatal(err)
	}
	m.serve(ln)
}

// TestHTTPServerGoneCallNotSentAndRestart: a call to a streamable HTTP
// server that died (no standalone stream to notice it) fails at once,
// not sent (class connection, retryable), saying the server cannot be
// reached — not "the server answered" — and the server leaves ready at
// once, not at the next health check.
func TestHTTPServerGoneCallNotSentAndRestart(t *testing.T) {
	hm := newHTTPMCP(t)
	ch := make(statuses, 256)
	reg := newRegistryForTest()
	m, err := New(Config{Servers: []ServerConfig{{Name: "h", URL: hm.url()}}, Registry: reg,
		Backoff: Backoff{Base: time.Hour}, HealthInterval: time.Hour, OnChange: ch.on,
		Transport: func(_ context.Context, sc ServerConfig) (sdk.Transport, error) {
			// No kept-alive connection: one the server closed as idle
			// and the client took before it noticed fails with "server
			// closed idle connection", which is no type (so: it may
			// have run); this test is about a request that cannot
			// connect at all, as when the server died a while ago.
			return &sdk.StreamableClientTransport{Endpoint: sc.URL, DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(t.Context())
	ch.waitFor(t, "ready", func(s ServerStatus) bool { return s.State == StateReady })
	if o := run(reg, "mcp__h__echo", `{"text":"hi"}`); !o.Result.Success {
		t.Fatalf("echo before the kill: %s", o.ForModel)
	}
	hm.kill()
	tl := &remoteTool{spec: tools.Spec{Name: "mcp__h__echo"}, remote: "echo", srv: m.servers[0]}
	_, err = tl.Run(context.Background(), nil, json.RawMessage(`{"text":"hi"}`))
	if !errors.Is(err, ErrUnavailable) || !tools.NotSent(err) || tools.Classify(err) != tools.ClassConnection {
		t.Fatalf("call to a dead server: %v (class %s, not sent %v)", err, tools.Classify(err), tools.NotSent(err))
	}
	mustContain(t, "call error", err.Error(), "cannot reach the server", "connection refused", "the call was not sent")
	if strings.Contains(err.Error(), "rejected by transport") {
		t.Errorf("the transport's wording leaks: %v", err)
	}
	st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool { return s.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "a call found its connection gone", "connection refused", "next attempt in")
	if len(reg.Names()) != 0 {
		t.Fatalf("tools of a dead server still offered: %v", reg.Names())
	}
}

// TestHTTPStreamBreakEndsSessionAtOnce: the standalone stream (GET) of
// an HTTP session breaking when the server dies ends the session at
// once, without a call and without the SDK's reconnection attempts;
// the server is restarted with the backoff and is ready again once the
// server is back. A starting server carries no reason.
func TestHTTPStreamBreakEndsSessionAtOnce(t *testing.T) {
	hm := newHTTPMCP(t)
	ch := make(statuses, 256)
	reg := newRegistryForTest()
	m, err := New(Config{Servers: []ServerConfig{{Name: "h", URL: hm.url()}}, Registry: reg,
		Backoff:        Backoff{Base: time.Millisecond, Max: 20 * time.Millisecond, BreakerFailures: 1 << 20},
		HealthInterval: time.Hour, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(t.Context())
	ch.waitFor(t, "ready", func(s ServerStatus) bool { return s.State == StateReady })
	// The standalone stream is open once the server has its session's
	// GET; a call proves the session is up, not the stream. Kill and
	// wait: the stream's break is what ends the session.
	hm.kill()
	st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool { return s.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "the connection to the server failed", "next attempt in")
	hm.revive()
	st = ch.waitFor(t, "ready again", func(s ServerStatus) bool {
		if s.State == StateStarting && s.Reason != "" {
			t.Errorf("a starting server with a reason: %q", s.Reason)
		}
		return s.State == StateReady
	})
	if st.Restarts < 1 {
		t.Fatalf("ready again without a restart: %+v", st)
	}
	if o := run(reg, "mcp__h__echo", `{"text":"back"}`); !o.Result.Success {
		t.Fatalf("echo after the restart: %s", o.ForModel)
	}
}

// TestHTTPStreamCutServerAliveStaysReady: a standalone stream cut while
// the server is alive (a proxy's idle timeout) is checked at once — a
// tool list — and, the server answering, the session stays ready (the
// SDK reconnects the stream); nothing goes unavailable.
func TestHTTPStreamCutServerAliveStaysReady(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "http", Version: "1"}, nil)
	echoTool(srv, "", nil)
	lists := make(chan struct{}, 16)
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				lists <- struct{}{}
			}
			return next(ctx, method, req)
		}
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	gets := make(chan struct{}, 16)
	var cut atomic.Bool
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets <- struct{}{}
			if cut.CompareAndSwap(false, true) {
				// The first standalone stream: opened, then cut.
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	rec := &recorder{}
	reg := newRegistryForTest()
	m, err := New(Config{Servers: []ServerConfig{{Name: "h", URL: hs.URL}}, Registry: reg,
		Backoff: Backoff{Base: time.Hour}, HealthInterval: time.Hour, OnChange: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(t.Context())
	recv(t, lists, "the first tool list")
	recv(t, gets, "the stream that is cut")
	recv(t, lists, "the check after the cut")
	recv(t, gets, "the SDK's reconnection")
	if o := run(reg, "mcp__h__echo", `{"text":"still"}`); !o.Result.Success {
		t.Fatalf("echo after the cut: %s", o.ForModel)
	}
	if st := m.Status()[0]; st.State != StateReady || st.Restarts != 0 {
		t.Fatalf("after the cut: %+v", st)
	}
	if s := rec.states(); strings.Contains(s, StateUnavailable) {
		t.Fatalf("states %s", s)
	}
}

// recv waits for a signal on ch; a minute without one fails the test
// (a guard, not a synchronisation).
func recv(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	guard := time.NewTimer(time.Minute)
	defer guard.Stop()
	select {
	case <-ch:
	case <-guard.C:
		t.Fatalf("waited a minute for %s", what)
	}
}
