package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/config"
	"opsassist/internal/watch"
	"opsassist/tools"
	"opsassist/tools/mcp"
)

// newTestReloader returns a reloader of cfg's files over a manager that
// is never started (Apply only records the servers), and its logs.
func newTestReloader(t *testing.T, cfg config.Config, env map[string]string) (*reloader, *mcp.Manager, *observer.ObservedLogs) {
	t.Helper()
	m, err := mcp.New(mcp.Config{Registry: newMaxToolsRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	core, logs := observer.New(zapcore.DebugLevel)
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	r := newReloader(cfg, lookup, m, newMaxToolsRegistry(), zap.New(core))
	if r == nil {
		t.Fatal("no reloader for configuration files")
	}
	return r, m, logs
}

func serverNames(m *mcp.Manager) string {
	var names []string
	for _, s := range m.Status() {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

// TestReloadAppliesServersWarnsRestartKeepsOnError: a reload applies
// the servers; another changed key is named in a "restart to apply"
// warning; an unset ${VAR} makes the servers using it unavailable; an
// invalid file keeps the servers, shows in the state and is logged
// without the secret.
func TestReloadAppliesServersWarnsRestartKeepsOnError(t *testing.T) {
	if newReloader(config.Defaults(), os.LookupEnv, nil, nil, zap.NewNop()) != nil {
		t.Fatal("a reloader without files")
	}
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	os.WriteFile(file, []byte("mcp_servers: {}\n"), 0o600)
	env := map[string]string{"TOK": "s3cret-value"}
	r, m, logs := newTestReloader(t, config.Config{File: file}, env)
	if r.state() != "ok" {
		t.Fatalf("state %q", r.state())
	}
	os.WriteFile(file, []byte("http: 127.0.0.1:1234\nmcp_servers:\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK}\"}\n"), 0o600)
	r.reload()
	if got := serverNames(m); got != "a" || r.state() != "ok" {
		t.Fatalf("servers %q, state %q", got, r.state())
	}
	if w := logs.FilterMessage("restart to apply: http").Len(); w != 1 {
		t.Fatalf("restart warnings: %v", logs.All())
	}
	delete(env, "TOK")
	os.WriteFile(file, []byte("mcp_servers:\n  b: {url: \"http://${TOK}/\"}\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK}\"}\n"), 0o600)
	r.reload()
	// An unset variable is no error of the file: the servers that use it
	// are unavailable, saying why.
	if got := serverNames(m); got != "a,b" || r.state() != "ok" {
		t.Fatalf("servers after a reload with an unset variable: %q, state %q", got, r.state())
	}
	for _, st := range m.Status() {
		if st.State != mcp.StateUnavailable || !strings.Contains(st.Reason, "environment variable TOK is not set") {
			t.Fatalf("status %+v", st)
		}
	}
	for _, e := range logs.All() {
		if strings.Contains(e.Message+" "+strings.Join(fieldStrings(e), " "), "s3cret") {
			t.Fatalf("a secret logged: %+v", e)
		}
	}
	// A YAML type error quotes the value: neither health nor the log
	// shows it.
	env["TOK"] = "again"
	os.WriteFile(file, []byte("limits: {max_tools: s3cretvalue}\n"), 0o600)
	r.reload()
	if st := r.state(); !strings.HasPrefix(st, "reload failed: ") || strings.Contains(st, "s3cret") {
		t.Fatalf("state %q", st)
	}
	if got := serverNames(m); got != "a,b" {
		t.Fatalf("servers after a failed reload: %q", got)
	}
	for _, e := range logs.All() {
		if strings.Contains(e.Message+" "+strings.Join(fieldStrings(e), " "), "s3cret") {
			t.Fatalf("a quoted value logged: %+v", e)
		}
	}
	os.WriteFile(file, []byte("mcp_servers:\n  b: {url: \"http://${TOK}/\"}\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK}\"}\n"), 0o600)
	r.reload()
	if r.state() != "ok" {
		t.Fatalf("state after a good reload %q", r.state())
	}
	if got := serverNames(m); got != "a,b" {
		t.Fatalf("servers %q", got)
	}
	// The variable set (the next start; here a new lookup): the servers
	// are started.
	for _, st := range m.Status() {
		if st.State != mcp.StateStarting {
			t.Fatalf("status after the fix %+v", st)
		}
	}
}

// fieldStrings is e's fields, printed.
func fieldStrings(e observer.LoggedEntry) []string {
	var out []string
	for k, v := range e.ContextMap() {
		out = append(out, k+"="+fmt.Sprint(v))
	}
	return out
}

// TestReloadWatchesMCPJSON: run watches the --mcp-config file too; a
// server added there is applied.
func TestReloadWatchesMCPJSON(t *testing.T) {
	js := filepath.Join(t.TempDir(), ".mcp.json")
	os.WriteFile(js, []byte(`{"mcpServers":{}}`), 0o600)
	r, m, logs := newTestReloader(t, config.Config{MCPConfig: js}, nil)
	defer func() {
		if t.Failed() {
			t.Log(logs.All())
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.run(ctx) }()
	defer func() { cancel(); <-done }()
	// run may not watch yet: write until the change is applied, each
	// write after the debounce interval (writes closer are one burst).
	tick := time.NewTicker(2 * watch.DefaultDebounce)
	defer tick.Stop()
	deadline := time.After(time.Minute)
	for serverNames(m) != "fs" {
		os.WriteFile(js, []byte(`{"mcpServers":{"fs":{"command":"mcp-fs","args":["/srv"]}}}`), 0o600)
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("servers %q", serverNames(m))
		}
	}
}

// TestReloadMCPConfigFromTheFile: a .mcp.json named by the file's
// mcp_config is read from the path the file names at each reload; a new
// path is applied and named in the restart warning (the old one stays
// watched). One given by --mcp-config stays.
func TestReloadMCPConfigFromTheFile(t *testing.T) {
	dir := t.TempDir()
	file, js1, js2 := filepath.Join(dir, "opsassist.yaml"), filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")
	os.WriteFile(js1, []byte(`{"mcpServers":{"one":{"command":"srv"}}}`), 0o600)
	os.WriteFile(js2, []byte(`{"mcpServers":{"two":{"command":"srv"}}}`), 0o600)
	os.WriteFile(file, []byte("mcp_config: "+js1+"\n"), 0o600)
	r, m, logs := newTestReloader(t, config.Config{File: file, MCPConfig: js1}, nil)
	if len(r.watched) != 2 {
		t.Fatalf("watched %v", r.watched)
	}
	os.WriteFile(file, []byte("mcp_config: "+js2+"\n"), 0o600)
	r.reload()
	if got := serverNames(m); got != "two" {
		t.Fatalf("servers %q", got)
	}
	if logs.FilterMessage("restart to apply: mcp_config").Len() != 1 {
		t.Fatalf("logs %v", logs.All())
	}
	// --mcp-config js2 over the file's js1: js2 stays.
	os.WriteFile(file, []byte("mcp_config: "+js1+"\n"), 0o600)
	r, m, _ = newTestReloader(t, config.Config{File: file, MCPConfig: js2}, nil)
	r.reload()
	if got := serverNames(m); got != "two" {
		t.Fatalf("servers with the flag %q", got)
	}
}

// newMaxToolsRegistry is a registry of five built-in tools.
func newMaxToolsRegistry() *tools.Registry {
	reg := tools.NewRegistry(tools.Config{})
	for i := range 5 {
		reg.Register(catTool{fmt.Sprintf("t%d", i), ""})
	}
	return reg
}

// TestReloadAppliesMaxTools: a change to limits.max_tools is applied to
// the registry's cap at once, and not named as needing a restart.
func TestReloadAppliesMaxTools(t *testing.T) {
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	os.WriteFile(file, []byte("limits: {max_tools: 4}\n"), 0o600)
	r, _, logs := newTestReloader(t, config.Config{File: file}, nil)
	if offered, _ := r.reg.Offered(); len(offered) != 5 {
		t.Fatalf("offered before %d", len(offered)) // the registry's own default until a change
	}
	os.WriteFile(file, []byte("limits: {max_tools: 2}\n"), 0o600)
	r.reload()
	if offered, left := r.reg.Offered(); len(offered) != 2 || len(left) != 3 {
		t.Fatalf("offered %d, left %v", len(offered), left)
	}
	if logs.FilterMessage("limits.max_tools applied").Len() != 1 {
		t.Fatalf("logs %v", logs.All())
	}
	for _, e := range logs.All() {
		if strings.HasPrefix(e.Message, "restart to apply") {
			t.Fatalf("max_tools named as needing a restart: %s", e.Message)
		}
	}
}

// TestReloadFixingAnUnsetVariableStartsTheServer: a server with an
// unset ${VAR} is unavailable; an edit that resolves it (a default)
// brings it up, the other server untouched.
func TestReloadFixingAnUnsetVariableStartsTheServer(t *testing.T) {
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	os.WriteFile(file, []byte("mcp_servers: {}\n"), 0o600)
	r, m, _ := newTestReloader(t, config.Config{File: file}, nil)
	os.WriteFile(file, []byte("mcp_servers:\n  a: {url: \"http://127.0.0.1:1/mcp\"}\n  b: {url: \"http://${HOST}/mcp\"}\n"), 0o600)
	r.reload()
	st := m.Status()
	if len(st) != 2 || st[0].State != mcp.StateStarting || st[1].State != mcp.StateUnavailable ||
		st[1].Reason != "mcp_servers.b.url: environment variable HOST is not set" || r.state() != "ok" {
		t.Fatalf("statuses %+v, state %q", st, r.state())
	}
	os.WriteFile(file, []byte("mcp_servers:\n  a: {url: \"http://127.0.0.1:1/mcp\"}\n  b: {url: \"http://${HOST:-127.0.0.1:2}/mcp\"}\n"), 0o600)
	r.reload()
	if st := m.Status(); st[1].State != mcp.StateStarting || st[1].Reason != "" {
		t.Fatalf("after the fix %+v", st)
	}
}

// TestReloadKeepsUnsetTokensOK: a configuration loaded with
// config.WithUnsetTokens (mcp-stdio's in-process daemon) is reloaded
// the same way: a user whose token_env is unset does not make every
// reload fail; without it the reload is refused, as at the daemon's
// start.
func TestReloadKeepsUnsetTokensOK(t *testing.T) {
	for _, lenient := range []bool{true, false} {
		file := filepath.Join(t.TempDir(), "opsassist.yaml")
		users := "users:\n  alice: {role: operator, token_env: A14_ALICE}\n"
		os.WriteFile(file, []byte(users+"mcp_servers: {}\n"), 0o600)
		r, m, _ := newTestReloader(t, config.Config{File: file, AllowUnsetTokens: lenient}, nil)
		os.WriteFile(file, []byte(users+"mcp_servers:\n  a: {url: \"http://127.0.0.1:1/mcp\"}\n"), 0o600)
		r.reload()
		got, state := serverNames(m), r.state()
		if lenient && (got != "a" || state != "ok") {
			t.Errorf("with AllowUnsetTokens: servers %q, state %q", got, state)
		}
		if !lenient && (got != "" || !strings.Contains(state, "token_env A14_ALICE is not set")) {
			t.Errorf("without: servers %q, state %q, want the reload refused", got, state)
		}
	}
}
