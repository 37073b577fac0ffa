package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// recorder keeps every status.
type recorder struct {
	mu  sync.Mutex
	all []ServerStatus
}

func (r *recorder) on(st ServerStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, st)
}

func (r *recorder) states() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var s []string
	for _, st := range r.all {
		s = append(s, st.State)
	}
	return strings.Join(s, ",")
}

func TestCallInFlightOnRemovedServerFailsCleanly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "s1", URL: "u"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"s1": richServer(nil)})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		done := make(chan tools.Outcome)
		go func() { done <- run(reg, "mcp__s1__slow", `{}`) }()
		synctest.Wait() // the call is in flight
		if err := m.Apply(nil); err != nil {
			t.Fatal(err)
		}
		o := <-done
		if o.Result.Success {
			t.Fatalf("in-flight call: %s", o.ForModel)
		}
		t.Log(o.Result.Error)
		mustContain(t, "in-flight", o.Result.Error, "connection to the server lost during the call", "the server was stopped")
		if len(reg.Names()) != 0 {
			t.Fatalf("tools left: %v", reg.Names())
		}
	})
}

func TestUnavailableServerRefusesBeforeSending(t *testing.T) {
	srv := &server{cfg: ServerConfig{Name: "s"}, st: ServerStatus{State: StateUnavailable, Reason: "initialize: boom"}}
	tl := &remoteTool{spec: tools.Spec{Name: "mcp__s__x"}, remote: "x", srv: srv}
	_, err := tl.Run(context.Background(), nil, json.RawMessage(`{}`))
	if !errors.Is(err, ErrUnavailable) || !tools.NotSent(err) || tools.Classify(err) != tools.ClassConnection {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(err.Error(), "initialize: boom") {
		t.Fatalf("reason missing: %v", err)
	}
}

func TestCircuitBreakerStopsACrashLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var pipes []net.Conn // the server ends, one per session
		transport := func(ctx context.Context, sc ServerConfig) (sdk.Transport, error) {
			c1, c2 := net.Pipe()
			srv := sdk.NewServer(&sdk.Implementation{Name: "crashy", Version: "1"}, nil)
			echoTool(srv, "", nil)
			mu.Lock()
			pipes = append(pipes, c2)
			mu.Unlock()
			if _, err := srv.Connect(context.WithoutCancel(ctx), &sdk.IOTransport{Reader: c2, Writer: c2}, nil); err != nil {
				return nil, err
			}
			return &sdk.IOTransport{Reader: c1, Writer: c1}, nil
		}
		sessions := func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(pipes)
		}
		var m *Manager
		// crash ends the newest session once it is ready.
		crash := func() {
			t.Helper()
			synctest.Wait()
			if st := m.Status()[0]; st.State != StateReady {
				t.Fatalf("not ready before the crash: %+v", st)
			}
			mu.Lock()
			pipes[len(pipes)-1].Close()
			mu.Unlock()
			synctest.Wait()
		}
		reg := tools.NewRegistry(tools.Config{})
		m, _ = New(Config{Servers: []ServerConfig{{Name: "c", URL: "u"}}, Registry: reg, Transport: transport,
			Jitter: func() float64 { return 0.5 }})
		defer m.Close()
		m.Start(t.Context())
		// It crashes as soon as it is up, every time: backoff 1s, 2s,
		// 4s, 8s after failures 1–4; the 5th opens the circuit.
		for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second} {
			crash()
			if st := m.Status()[0]; st.State != StateUnavailable || len(reg.Names()) != 0 {
				t.Fatalf("after a crash: %+v %v", st, reg.Names())
			}
			time.Sleep(d)
		}
		crash()
		if n := sessions(); n != 5 {
			t.Fatalf("%d sessions before the circuit opened", n)
		}
		st := m.Status()[0]
		if st.State != StateUnavailable || !strings.Contains(st.Reason, "circuit open after 5 failures") || st.Restarts != 4 {
			t.Fatalf("status %+v", st)
		}
		time.Sleep(DefaultBreakerCooldown - time.Second)
		synctest.Wait()
		if n := sessions(); n != 5 {
			t.Fatalf("%d sessions while the circuit is open", n)
		}
		time.Sleep(time.Second)
		crash() // one more failure after the cooldown reopens it
		if st := m.Status()[0]; sessions() != 6 || !strings.Contains(st.Reason, "circuit open after 5 failures") {
			t.Fatalf("after the cooldown: %d sessions, %+v", sessions(), st)
		}
	})
}

func TestHealthCheckToolFailureRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var sick atomic.Bool
		srv := sdk.NewServer(&sdk.Implementation{Name: "h", Version: "1"}, nil)
		echoTool(srv, "", nil)
		srv.AddTool(&sdk.Tool{Name: "ping_db", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				if sick.Load() {
					r := textResult("database unreachable")
					r.IsError = true
					return r, nil
				}
				return textResult("ok"), nil
			})
		rec := &recorder{}
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "h", URL: "u", HealthCheckTool: "ping_db"}}, Registry: reg,
			HealthInterval: 10 * time.Second, Jitter: func() float64 { return 0.5 }, OnChange: rec.on,
			Transport: inMemory(map[string]*sdk.Server{"h": srv})})
		defer m.Close()
		m.Start(t.Context())
		time.Sleep(25 * time.Second) // two healthy checks
		synctest.Wait()
		// Checks that find the same tools change nothing: no new status.
		if got := rec.states(); got != "ready" {
			t.Fatalf("healthy: %s", got)
		}
		sick.Store(true)
		time.Sleep(5*time.Second + 500*time.Millisecond) // the check at 30s fails; the next attempt is at 31s
		synctest.Wait()
		st := m.Status()[0]
		if st.State != StateUnavailable || !strings.Contains(st.Reason, "health check: ping_db: database unreachable") || len(reg.Names()) != 0 {
			t.Fatalf("sick: %+v, tools %v", st, reg.Names())
		}
		sick.Store(false)
		time.Sleep(time.Second)
		synctest.Wait()
		if st := m.Status()[0]; st.State != StateReady || st.Restarts != 1 {
			t.Fatalf("back: %+v", st)
		}
	})
}
