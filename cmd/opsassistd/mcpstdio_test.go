package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/chat"
	"opsassist/cli"
	"opsassist/config"
	"opsassist/daemon"
	"opsassist/storage/datalock"
)

// childEnv makes the test binary run opsassistd's run with its arguments:
// the command's tests spawn it as mcp-stdio.
const childEnv = "OPSASSISTD_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// child is an opsassistd process: this test binary in childEnv mode, in
// its own directory (for ./workspace), with none of the caller's
// OPSASSIST_* variables.
func child(t *testing.T, env []string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = t.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPSASSIST") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, append(env, childEnv+"=1")...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// piped starts cmd and connects an MCP client to its stdin and stdout,
// recording every byte it writes on stdout.
func piped(t *testing.T, cmd *exec.Cmd, opts *mcp.ClientOptions) (*mcp.ClientSession, *syncBuffer, error) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	out := &syncBuffer{}
	r := struct {
		io.Reader
		io.Closer
	}{io.TeeReader(stdout, out), stdout}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop-agent", Version: "1"}, opts).Connect(ctx, &mcp.IOTransport{Reader: r, Writer: stdin}, nil)
	return cs, out, err
}

// exitCode waits for cmd, which was told to stop (its stdin closed), and
// returns its exit status; one that does not exit fails the test.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatal("opsassistd mcp-stdio did not exit after its stdin closed")
	}
	if cmd.ProcessState.ExitCode() < 0 {
		t.Logf("state: %v", cmd.ProcessState)
	}
	return cmd.ProcessState.ExitCode()
}

// onlyJSONRPC fails unless every line of out is a JSON-RPC 2.0 message.
func onlyJSONRPC(t *testing.T, out string) {
	t.Helper()
	n := 0
	for line := range strings.Lines(out) {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" {
			t.Fatalf("stdout carries a line that is not JSON-RPC: %q", line)
		}
		n++
	}
	if n == 0 {
		t.Fatal("nothing on stdout")
	}
}

// fakeDaemonMCP is a streamable HTTP MCP server standing in for a
// running daemon's /mcp; it demands token (if not empty) and offers one
// tool, ping.
func fakeDaemonMCP(t *testing.T, token string) *httptest.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-opsassistd", Version: "test"}, nil)
	s.AddTool(&mcp.Tool{Name: "ping", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != mcpPath || token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// holdData takes data's lock in this process, as a daemon would, and
// records httpAddr as its HTTP address (none if empty).
func holdData(t *testing.T, data, httpAddr string) {
	t.Helper()
	lock, err := datalock.Acquire(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Release() })
	if httpAddr != "" {
		if err := lock.Publish(datalock.Record{HTTP: httpAddr, Version: "test"}); err != nil {
			t.Fatal(err)
		}
	}
}

// decoy is an HTTP server that fails the test if anything reaches it:
// what --http names, which the bridge must ignore.
func decoy(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the decoy on --http was reached: %s %s (Authorization %q)", r.Method, r.URL, r.Header.Get("Authorization"))
		http.Error(w, "decoy", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// TestMCPStdioBridgesToLockHolder: with the data directory held,
// mcp-stdio bridges to the http address its holder recorded there (not
// to --http) with OPSASSIST_TOKEN, its stdout carries JSON-RPC only,
// and it exits 0 when its stdin closes.
func TestMCPStdioBridgesToLockHolder(t *testing.T) {
	data := t.TempDir()
	const token = "bridge-token-0123456789"
	srv := fakeDaemonMCP(t, token)
	holdData(t, data, srv.Listener.Addr().String())
	cmd, stderr := child(t, []string{envToken + "=" + token}, "mcp-stdio", "--data", data, "--http", decoy(t), "--log-level", "debug")
	cs, out, err := piped(t, cmd, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "pong" {
		t.Fatalf("ping: %+v %v; stderr:\n%s", res, err, stderr)
	}
	cs.Close()
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d after stdin closed; stderr:\n%s", code, stderr)
	}
	onlyJSONRPC(t, out.String())
	if !strings.Contains(stderr.String(), "bridging") || !strings.Contains(stderr.String(), "connected to the opsassist daemon") {
		t.Errorf("stderr does not say it bridged:\n%s", stderr)
	}
	if strings.Contains(stderr.String(), token) {
		t.Error("the token was logged")
	}
}

// TestMCPStdioBadInputLine: a line on stdin that is not JSON-RPC is
// dropped with a warning on stderr; the session goes on.
func TestMCPStdioBadInputLine(t *testing.T) {
	data := t.TempDir()
	srv := fakeDaemonMCP(t, "")
	holdData(t, data, srv.Listener.Addr().String())
	cmd, stderr := child(t, nil, "mcp-stdio", "--data", data)
	r, w := io.Pipe()
	cmd.Stdin = r
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "this is not json\n")
	ctx := context.Background()
	// The client's Close must not close the child's stdout (a write the
	// child makes while it shuts down would then kill it with SIGPIPE):
	// closing stdin is what ends the session.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop-agent", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdout), Writer: w}, nil)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("connect after a bad line: %v; stderr:\n%s", err, stderr)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"}); err != nil || res.IsError {
		t.Fatalf("ping: %+v %v", res, err)
	}
	cs.Close()
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "dropped an input line that is not a JSON-RPC message") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestMCPStdioBridgeUnreachable: a held data directory whose daemon
// cannot be reached fails the agent's initialize, says so on stderr, and
// exits 1.
func TestMCPStdioBridgeUnreachable(t *testing.T) {
	data := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	holdData(t, data, addr)
	cmd, stderr := child(t, nil, "mcp-stdio", "--data", data)
	cs, out, err := piped(t, cmd, nil)
	if err == nil {
		cs.Close()
		t.Fatal("initialize succeeded without a daemon")
	}
	if !strings.Contains(err.Error(), "opsassist daemon unreachable") || !strings.Contains(err.Error(), addr) {
		t.Errorf("initialize: %v", err)
	}
	if code := exitCode(t, cmd); code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "opsassistd mcp-stdio: mcpbridge: opsassist daemon unreachable at http://"+addr+"/mcp") {
		t.Errorf("stderr:\n%s", stderr)
	}
	onlyJSONRPC(t, out.String())
}

// TestMCPStdioInProcess: with no daemon, mcp-stdio runs one on the data
// directory and serves the built-in tools over stdio; sys_monitor runs;
// closing stdin ends it with status 0.
func TestMCPStdioInProcess(t *testing.T) {
	data := t.TempDir()
	cmd, stderr := child(t, nil, "mcp-stdio", "--data", data)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop-agent", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "sys_monitor") {
		t.Fatalf("tools %v, want sys_monitor", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("sys_monitor: %+v %v; stderr:\n%s", res, err, stderr)
	}
	cs.Close() // closes stdin, waits for the exit
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("exit %v after stdin closed; stderr:\n%s", cmd.ProcessState, stderr)
	}
	if _, err := os.Stat(filepath.Join(data, datalock.FileName)); err != nil {
		t.Errorf("the in-process daemon did not use the data directory: %v", err)
	}
}

// TestMCPStdioInProcessStdoutAndSIGTERM: in process, with debug logs on,
// stdout carries JSON-RPC only, and SIGTERM ends it with status 0.
func TestMCPStdioInProcessStdoutAndSIGTERM(t *testing.T) {
	cmd, stderr := child(t, nil, "mcp-stdio", "--data", t.TempDir(), "--log-level", "debug")
	cs, out, err := piped(t, cmd, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("sys_monitor: %+v %v; stderr:\n%s", res, err, stderr)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d after SIGTERM; stderr:\n%s", code, stderr)
	}
	onlyJSONRPC(t, out.String())
	if !strings.Contains(stderr.String(), "mcp-stdio serving in this process") {
		t.Errorf("stderr does not say it runs in process:\n%s", stderr)
	}
}

// TestMCPStdioBridgesToDaemon: with a daemon on a random port holding
// the data directory, mcp-stdio given only --data bridges to its /mcp
// (found through the record the daemon wrote), and the call lands in
// the daemon's audit log (one writer).
func TestMCPStdioBridgesToDaemon(t *testing.T) {
	cfg := config.Defaults()
	cfg.Data, cfg.Workspace = t.TempDir(), t.TempDir()
	cfg.NPLT, cfg.HTTP, cfg.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	a, err := daemon.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	defer a.Shutdown(context.Background())
	cmd, stderr := child(t, nil, "mcp-stdio", "--data", cfg.Data)
	cs, out, err := piped(t, cmd, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("sys_monitor: %+v %v; stderr:\n%s", res, err, stderr)
	}
	cs.Close()
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	onlyJSONRPC(t, out.String())
	files, _ := filepath.Glob(filepath.Join(cfg.Data, "audit", "*"))
	var log []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		log = append(log, b...)
	}
	if !bytes.Contains(log, []byte("sys_monitor")) {
		t.Fatalf("the daemon's audit log has no sys_monitor call: %s", log)
	}
}

// TestMCPStdioNoCurrentRecord: a held data directory whose record is
// missing, or is another process's (a daemon killed with SIGKILL left
// it), is refused with an error naming the file and exit 1; nothing is
// dialled, not --http and not a default port, and the token goes
// nowhere.
func TestMCPStdioNoCurrentRecord(t *testing.T) {
	for _, c := range []struct {
		name, record, want string
	}{
		{"missing", "", "no such file"},
		{"stale", `{"pid": 999999999, "http": "` + "%s" + `"}`, "is stale: it names pid 999999999, not the lock holder"},
	} {
		data := t.TempDir()
		holdData(t, data, "")
		bait := decoy(t)
		if c.record != "" {
			os.WriteFile(filepath.Join(data, datalock.RecordName), []byte(strings.Replace(c.record, "%s", bait, 1)), 0o600)
		}
		cmd, stderr := child(t, []string{envToken + "=secret-token-0123456789"}, "mcp-stdio", "--data", data, "--http", bait)
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("%s: exit %d, want 1; stderr:\n%s", c.name, code, stderr)
		}
		path := filepath.Join(data, datalock.RecordName)
		if !strings.Contains(stderr.String(), "opsassistd mcp-stdio: datalock: "+path+": "+c.want) {
			t.Errorf("%s: stderr lacks the file and %q:\n%s", c.name, c.want, stderr)
		}
	}
}

// TestMCPStdioUsage: --help explains both modes and exits 0, the daemon's
// --help lists the command, a stray argument is exit 2.
func TestMCPStdioUsage(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stdout bool // the text is on stdout (asked-for help), else stderr
		want   []string
	}{
		{[]string{"--help"}, 0, true, []string{"opsassistd mcp-stdio [flags]", "-data string", "opsassistd --version"}},
		{[]string{"mcp-stdio", "--help"}, 0, false, []string{"a daemon holds it", "no daemon", "OPSASSIST_TOKEN", "elicitation", "-http string", "daemon.json", "--http"}},
		{[]string{"mcp-stdoi"}, 2, false, []string{`unknown command "mcp-stdoi"`}},
		{[]string{"--data", "d", "mcp-stdio"}, 2, false, []string{`unknown command "mcp-stdio"`}},
		{[]string{"mcp-stdio", "extra"}, 2, false, []string{`unexpected argument "extra"`}},
	} {
		cmd, stderr := child(t, nil, c.args...)
		stdout := &syncBuffer{}
		cmd.Stdout = stdout
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", c.args, code, c.code, stderr)
		}
		out, name := stderr.String(), "stderr"
		if c.stdout {
			out, name = stdout.String(), "stdout"
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: %s lacks %q:\n%s", c.args, name, w, out)
			}
		}
	}
}

// TestPrincipal: the local operator unless tokens are configured and
// OPSASSIST_TOKEN names a user; a token naming nobody is refused.
func TestPrincipal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("users:\n  alice: {role: operator, token_env: T_ALICE}\n"), 0o600)
	env := map[string]string{"T_ALICE": "alice-token-0123456789"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	withUsers, err := config.Load(newFlagSet(), []string{"--config", file}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		cfg   config.Config
		token string
		want  string // principal name, or "error"
	}{
		{"no users, no token", config.Defaults(), "", chat.LocalID},
		{"no users, a token", config.Defaults(), "whatever", chat.LocalID},
		{"users, no token", withUsers, "", chat.LocalID},
		{"users, alice's token", withUsers, "alice-token-0123456789", "alice"},
		{"users, a wrong token", withUsers, "wrong-token-0123456789", "error"},
	} {
		env[envToken] = c.token
		who, err := principal(c.cfg, lookup)
		got := who.Name
		if err != nil {
			got = "error"
			if !strings.Contains(err.Error(), envToken+" names no configured user") {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		if got != c.want {
			t.Errorf("%s: %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}

// TestEnvTokenIsTheCLIs: mcp-stdio reads the CLI's token variable.
func TestEnvTokenIsTheCLIs(t *testing.T) {
	if envToken != cli.EnvToken {
		t.Fatalf("envToken %q, cli.EnvToken %q", envToken, cli.EnvToken)
	}
}

// TestDaemonMCPURL: the bridge dials the HTTP address, a wildcard host
// on loopback.
func TestDaemonMCPURL(t *testing.T) {
	for _, c := range []struct {
		addr   string
		secure bool
		want   string
	}{
		{"127.0.0.1:8080", false, "http://127.0.0.1:8080/mcp"},
		{"0.0.0.0:8080", true, "https://127.0.0.1:8080/mcp"},
		{":8080", false, "http://127.0.0.1:8080/mcp"},
		{"[::]:8080", false, "http://[::1]:8080/mcp"},
		{"ops.example.com:443", true, "https://ops.example.com:443/mcp"},
	} {
		if got := daemonMCPURL(c.addr, c.secure); got != c.want {
			t.Errorf("%s: %s, want %s", c.addr, got, c.want)
		}
	}
}

func newFlagSet() *flag.FlagSet { return flag.NewFlagSet("test", flag.ContinueOnError) }

// usersConfig writes a configuration whose users give their tokens as
// token_env, as docs/configuration.md shows: alice (A14_ALICE) and bob
// (A14_BOB), data in data.
func usersConfig(t *testing.T, data string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.yaml")
	body := "data: " + data + "\nusers:\n  alice: {role: operator, token_env: A14_ALICE}\n  bob: {role: operator, token_env: A14_BOB}\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestMCPStdioBridgeNeedsNoUserTokens: bridging with --config whose
// users' token_env variables are all unset works: the users are the
// daemon's business, and OPSASSIST_TOKEN goes to it as is.
func TestMCPStdioBridgeNeedsNoUserTokens(t *testing.T) {
	data := t.TempDir()
	const token = "alice-token-0123456789"
	srv := fakeDaemonMCP(t, token)
	holdData(t, data, srv.Listener.Addr().String())
	cmd, stderr := child(t, []string{envToken + "=" + token}, "mcp-stdio", "--config", usersConfig(t, data))
	cs, _, err := piped(t, cmd, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
	if err != nil || res.IsError {
		t.Fatalf("ping: %+v %v; stderr:\n%s", res, err, stderr)
	}
	cs.Close()
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
}

// TestMCPStdioInProcessUnsetUserTokens: in process, with --config whose
// users give token_env and only bob's is set, OPSASSIST_TOKEN with bob's
// token serves as bob; alice's token (her variable unset here) matches
// nobody: exit 1, naming her variable and no token.
func TestMCPStdioInProcessUnsetUserTokens(t *testing.T) {
	const bobToken, aliceToken = "bob-token-0123456789", "alice-token-0123456789"
	t.Run("bob", func(t *testing.T) {
		cmd, stderr := child(t, []string{"A14_BOB=" + bobToken, envToken + "=" + bobToken}, "mcp-stdio", "--config", usersConfig(t, t.TempDir()))
		cs, _, err := piped(t, cmd, nil)
		if err != nil {
			t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
		}
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		cs.Close()
		if code := exitCode(t, cmd); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, stderr)
		}
		if !strings.Contains(stderr.String(), `"as": "bob"`) || !strings.Contains(stderr.String(), "alice (A14_ALICE)") {
			t.Errorf("stderr does not say it serves bob and that alice cannot sign in:\n%s", stderr)
		}
	})
	t.Run("alice", func(t *testing.T) {
		cmd, stderr := child(t, []string{"A14_BOB=" + bobToken, envToken + "=" + aliceToken}, "mcp-stdio", "--config", usersConfig(t, t.TempDir()))
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
		}
		want := "opsassistd mcp-stdio: " + envToken + " names no configured user (users:, auth_token) whose token this process has; token_env unset here for alice (A14_ALICE)"
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
		if strings.Contains(stderr.String(), aliceToken) || strings.Contains(stderr.String(), bobToken) {
			t.Errorf("a token was printed:\n%s", stderr)
		}
	})
}
