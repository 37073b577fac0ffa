package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// childEnvVar makes the test binary an MCP server over stdio (serve) or
// a command that never answers (sleep).
const childEnvVar = "OPSASSIST_MCP_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnvVar) {
	case "serve":
		serveChild()
		return
	case "sleep":
		time.Sleep(time.Hour)
		return
	case "grandchild":
		// A process of its own holds the server's stdout and stderr.
		g := exec.Command(os.Args[0])
		g.Env = append(os.Environ(), childEnvVar+"=sleep")
		g.Stdout, g.Stderr = os.Stdout, os.Stderr
		if err := g.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		serveChild()
		return
	case "write-exit":
		g := exec.Command(os.Args[0])
		g.Env = append(os.Environ(), childEnvVar+"=sleep")
		g.Stdout, g.Stderr = os.Stdout, os.Stderr
		if err := g.Start(); err != nil {
			os.Exit(1)
		}
		fmt.Print(strings.Repeat("out\n", 1000))
		fmt.Fprintln(os.Stderr, "last words")
		os.Exit(4)
	case "print-args":
		fmt.Fprintln(os.Stderr, "fatal: cannot start with "+strings.Join(os.Args[1:], " ")+" and key "+os.Getenv("MYTOKEN"))
		os.Exit(1)
	case "leak":
		fmt.Fprintln(os.Stderr, "auth failed for token "+os.Getenv("MYTOKEN"))
		os.Exit(1)
	case "fail":
		fmt.Fprintln(os.Stderr, "starting")
		fmt.Fprintln(os.Stderr, "fatal: cannot open database password=hunter2")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// serveChild serves echo, env (the child's environment) and die (exits
// mid-call) over stdio.
func serveChild() {
	s := sdk.NewServer(&sdk.Implementation{Name: "child", Version: "1"}, nil)
	echoTool(s, "", nil)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "env", InputSchema: obj, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return textResult(strings.Join(os.Environ(), "\n")), nil
		})
	s.AddTool(&sdk.Tool{Name: "die", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	s.Run(context.Background(), &sdk.StdioTransport{})
}

// childServer is a stdio ServerConfig running the test binary in mode.
func childServer(t *testing.T, name, mode string) ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Name: name, Command: exe, Env: map[string]string{childEnvVar: mode, "GIVEN": "yes"}, Cwd: t.TempDir()}
}

func fastBackoff() Backoff {
	return Backoff{Base: 10 * time.Millisecond, Max: 50 * time.Millisecond, BreakerFailures: 100}
}

func TestStdioChildDiesMidCallAndComesBack(t *testing.T) {
	t.Setenv("OPSASSIST_SECRET_FOR_TEST", "hunter2")
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	m, err := New(Config{Servers: []ServerConfig{childServer(t, "child", "serve")}, Registry: reg,
		Backoff: fastBackoff(), Jitter: func() float64 { return 0.5 }, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(t.Context())
	ch.waitFor(t, "ready", func(st ServerStatus) bool { return st.State == StateReady })

	o := run(reg, "mcp__child__echo", `{"text":"hello"}`)
	if string(o.Result.Output) != `{"text":"hello"}` {
		t.Fatalf("echo: %s", o.ForModel)
	}
	env := string(run(reg, "mcp__child__env", `{}`).Result.Output)
	mustContain(t, "child env", env, "GIVEN=yes", "PATH=")
	if strings.Contains(env, "hunter2") {
		t.Fatal("the daemon's environment leaked into the child")
	}

	o = run(reg, "mcp__child__die", `{}`)
	if o.Result.Success {
		t.Fatalf("die: %s", o.ForModel)
	}
	mustContain(t, "die", o.Result.Error, "connection to the server lost during the call", "may or may not have run", "once the server is back")
	st := ch.waitFor(t, "back after the crash", func(st ServerStatus) bool { return st.State == StateReady && st.Restarts >= 1 })
	if st.Tools != 3 {
		t.Fatalf("after restart: %+v", st)
	}
	if o := run(reg, "mcp__child__echo", `{"text":"again"}`); !o.Result.Success {
		t.Fatalf("after restart: %s", o.ForModel)
	}
}

func TestStdioServerThatNeverStartsDoesNotBlock(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	sc := childServer(t, "dead", "sleep")
	sc.StartupTimeout = 200 * time.Millisecond
	m, _ := New(Config{Servers: []ServerConfig{sc}, Registry: reg, Backoff: Backoff{Base: time.Hour}, Jitter: func() float64 { return 0.5 }, OnChange: ch.on})
	defer m.Close()
	m.Start(t.Context()) // returns at once
	if st := m.Status()[0]; st.State != StateStarting || len(reg.Names()) != 0 {
		t.Fatalf("right after Start: %+v, tools %v", st, reg.Names())
	}
	st := ch.waitFor(t, "unavailable", func(st ServerStatus) bool { return st.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "startup timeout", "next attempt in 1h")
	if len(reg.Names()) != 0 {
		t.Fatalf("tools of a dead server: %v", reg.Names())
	}
}

func TestStdioChildStderrInReason(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	m, _ := New(Config{Servers: []ServerConfig{childServer(t, "failing", "fail")}, Registry: reg,
		Backoff: Backoff{Base: time.Hour}, OnChange: ch.on})
	defer m.Close()
	m.Start(t.Context())
	st := ch.waitFor(t, "unavailable", func(st ServerStatus) bool { return st.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "stderr: fatal: cannot open database")
	if strings.Contains(st.Reason, "hunter2") {
		t.Fatalf("a secret in the reason: %s", st.Reason)
	}
}

func TestMissingCommandIsUnavailable(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	m, _ := New(Config{Servers: []ServerConfig{{Name: "gone", Command: "/nonexistent/mcp-server"}}, Registry: reg,
		Backoff: Backoff{Base: time.Hour}, OnChange: ch.on})
	defer m.Close()
	m.Start(t.Context())
	st := ch.waitFor(t, "unavailable", func(st ServerStatus) bool { return st.State == StateUnavailable })
	mustContain(t, "reason", st.Reason, "/nonexistent/mcp-server")
}

func TestStreamableHTTPWithHeaders(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "http", Version: "1"}, nil)
	echoTool(srv, "http:", nil)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()

	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 64)
	m, _ := New(Config{Servers: []ServerConfig{
		{Name: "good", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer s3cret"}},
		{Name: "bad", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer wrong"}},
	}, Registry: reg, Backoff: Backoff{Base: time.Hour}, OnChange: ch.on})
	defer m.Close()
	m.Start(t.Context())
	seen := map[string]string{}
	ch.waitFor(t, "both settled", func(st ServerStatus) bool {
		if st.State != StateStarting {
			seen[st.Name] = st.State
		}
		return len(seen) == 2
	})
	if seen["good"] != StateReady || seen["bad"] != StateUnavailable {
		t.Fatalf("states %v", seen)
	}
	if o := run(reg, "mcp__good__echo", `{"text":"x"}`); string(o.Result.Output) != `{"text":"http:x"}` {
		t.Fatalf("echo: %s", o.ForModel)
	}
	// The session outlives the start-up context.
	if st := m.Status()[0]; st.State != StateReady || st.Restarts != 0 {
		t.Fatalf("good after a call: %+v", st)
	}
	mustContain(t, "bad", m.Status()[1].Reason, "Unauthorized")
}

func TestBrokenHTTPSessionIsRestarted(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "http", Version: "1"}, nil)
	echoTool(srv, "", nil)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var broken atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	reg := tools.NewRegistry(tools.Config{})
	ch := make(statuses, 256)
	m, _ := New(Config{Servers: []ServerConfig{{Name: "h", URL: ts.URL, StartupTimeout: 5 * time.Second}}, Registry: reg,
		HealthInterval: 20 * time.Millisecond, Backoff: fastBackoff(), Jitter: func() float64 { return 0.5 }, OnChange: ch.on})
	defer m.Close()
	m.Start(t.Context())
	ch.waitFor(t, "ready", func(st ServerStatus) bool { return st.State == StateReady })
	broken.Store(true)
	st := ch.waitFor(t, "unavailable", func(st ServerStatus) bool { return st.State == StateUnavailable })
	if len(reg.Names()) != 0 {
		t.Fatalf("tools of a broken server: %v (%+v)", reg.Names(), st)
	}
	o := run(reg, "mcp__h__echo", `{"text":"x"}`)
	if o.Result.Success {
		t.Fatal("a call to a broken server succeeded")
	}
	broken.Store(false)
	ch.waitFor(t, "back", func(st ServerStatus) bool { return st.State == StateReady && st.Restarts >= 1 })
	if o := run(reg, "mcp__h__echo", `{"text":"x"}`); !o.Result.Success {
		t.Fatalf("after the restart: %s", o.ForModel)
	}
}
