package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"opsassist/tools"
	"opsassist/tools/mcp"
)

// writeFile writes body to name in a fresh temporary directory.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// mcpYAML is a config file whose mcp_servers pastes a Claude block (fs,
// gh) and uses every opsassist key.
const mcpYAML = `
mcp_servers:
  fs:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "${DOCS:-/srv/docs}"]
    env:
      NODE_OPTIONS: "--max-old-space-size=256"
    cwd: ${HOME}/mcp
  gh:
    type: http
    url: https://api.githubcopilot.com/mcp/
    headers:
      Authorization: "Bearer ${GH_TOKEN}"
    startup_timeout: 5s
    call_timeout: 2m
    disabled_tools: [delete_repository]
    risk:
      get_file_contents: read_only
      create_issue: sensitive
      merge_pull_request: dangerous
    health_check_tool: get_me
  everything:
    type: stdio
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    enabled_tools: [echo, add]
  off:
    command: /bin/false
    enabled: false
limits:
  max_tools: 40
`

// TestMCPServersLoadAndResolve: a pasted block loads as written (the
// references unexpanded), Resolve expands them through lookup, applies
// the default timeouts, sorts by name and leaves disabled servers out.
func TestMCPServersLoadAndResolve(t *testing.T) {
	file := writeFile(t, "c.yaml", mcpYAML)
	vars := map[string]string{"HOME": "/home/op", "GH_TOKEN": "ghp_secret"}
	c, err := load(t, []string{"--config", file}, vars)
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.MaxTools != 40 || len(c.MCPServers) != 4 {
		t.Fatalf("max_tools %d, servers %v", c.Limits.MaxTools, c.MCPServers)
	}
	if got := c.MCPServers["gh"].Headers["Authorization"]; got != "Bearer ${GH_TOKEN}" {
		t.Fatalf("expanded at load: %q", got)
	}
	if c.MCPServers["off"].IsEnabled() || !c.MCPServers["fs"].IsEnabled() {
		t.Fatal("enabled")
	}
	rs, err := c.ResolveMCPServers(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.ServerConfig{
		{Name: "everything", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"},
			StartupTimeout: 30 * time.Second, CallTimeout: 60 * time.Second, EnabledTools: []string{"echo", "add"}},
		{Name: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"},
			Env: map[string]string{"NODE_OPTIONS": "--max-old-space-size=256"}, Cwd: "/home/op/mcp",
			StartupTimeout: 30 * time.Second, CallTimeout: 60 * time.Second, Hidden: []string{"/home/op", "/home/op/mcp"}},
		{Name: "gh", URL: "https://api.githubcopilot.com/mcp/", Headers: map[string]string{"Authorization": "Bearer ghp_secret"},
			StartupTimeout: 5 * time.Second, CallTimeout: 2 * time.Minute, DisabledTools: []string{"delete_repository"},
			Risk:            map[string]tools.Risk{"get_file_contents": tools.RiskReadOnly, "create_issue": tools.RiskSensitive, "merge_pull_request": tools.RiskDangerous},
			HealthCheckTool: "get_me"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("resolved\n%+v\nwant\n%+v", rs, want)
	}
	if c.MCPServers["gh"].Headers["Authorization"] != "Bearer ${GH_TOKEN}" || strings.Contains(c.String(), "ghp_secret") {
		t.Fatal("Resolve changed the config")
	}
	// An unset variable does not stop the start: that server alone is
	// unavailable, the reason naming the field and the variable.
	delete(vars, "GH_TOKEN")
	c, err = load(t, []string{"--config", file}, vars)
	if err != nil {
		t.Fatalf("unset at load: %v", err)
	}
	rs, err = c.ResolveMCPServers(env(vars))
	if err != nil || len(rs) != 3 || !reflect.DeepEqual(rs[2], mcp.ServerConfig{Name: "gh", Unavailable: "mcp_servers.gh.headers.Authorization: environment variable GH_TOKEN is not set"}) ||
		rs[0].Unavailable != "" || rs[1].Unavailable != "" {
		t.Fatalf("unset: %+v, %v", rs, err)
	}
	if d := Defaults(); d.Limits.MaxTools != 100 || d.MCPServers != nil || d.MCPConfig != "" {
		t.Fatalf("defaults: %d %v %q", d.Limits.MaxTools, d.MCPServers, d.MCPConfig)
	}
	c, err = load(t, nil, map[string]string{"OPSASSIST_LIMITS_MAX_TOOLS": "7"})
	if err != nil || c.Limits.MaxTools != 7 {
		t.Fatalf("max_tools from the environment: %d, %v", c.Limits.MaxTools, err)
	}
}

// TestMCPServersErrors: each invalid entry is refused naming its key.
func TestMCPServersErrors(t *testing.T) {
	for body, want := range map[string]string{
		"a:\n    command: x\n    url: http://h/mcp\n":                           "mcp_servers.a.command: set either command (stdio) or url (HTTP), not both",
		"a:\n    args: [x]\n":                                                   "mcp_servers.a.command: set command (a stdio server) or url (an HTTP server)",
		"a:\n    type: stdio\n    url: http://h/mcp\n":                          "mcp_servers.a.command: type stdio needs command",
		"a:\n    type: http\n    command: x\n":                                  "mcp_servers.a.url: type http needs url",
		"a:\n    type: sse\n    url: http://h/sse\n":                            "mcp_servers.a.type: sse is not supported, use streamable HTTP",
		"a:\n    type: websocket\n    url: http://h/\n":                         `mcp_servers.a.type: "websocket" is not stdio, http or streamable-http`,
		"a:\n    url: ftp://h/mcp\n":                                            `mcp_servers.a.url: scheme "ftp" is not http or https`,
		"a:\n    url: /mcp\n":                                                   `mcp_servers.a.url: scheme "" is not http or https`,
		"a:\n    url: https:///mcp\n":                                           "mcp_servers.a.url: no host",
		"a:\n    url: ws://${HOST}/mcp\n":                                       "mcp_servers.a.url: not an http or https URL",
		"a:\n    url: http://h/\n    env: {A: b}\n":                             "mcp_servers.a.command: args, env and cwd are for a stdio server",
		"a:\n    command: x\n    headers: {A: b}\n":                             "mcp_servers.a.headers: headers are for an HTTP server",
		"a:\n    url: http://h/\n    headers: {\"A B\": c}\n":                   `mcp_servers.a.headers: "A"… is not a header name`,
		"a:\n    command: x\n    env: {\"A=B\": c}\n":                           `mcp_servers.a.env: "A"… is not a variable name`,
		"a:\n    command: x\n    startup_timeout: 0s\n":                         "mcp_servers.a.startup_timeout: must be positive",
		"a:\n    command: x\n    call_timeout: -1s\n":                           "mcp_servers.a.call_timeout: must be positive",
		"a:\n    command: x\n    enabled_tools: [p]\n    disabled_tools: [q]\n": "mcp_servers.a.enabled_tools: set enabled_tools or disabled_tools, not both",
		"a:\n    command: x\n    risk: {rm: yolo}\n":                            `mcp_servers.a.risk.rm: "yolo" is not read_only, sensitive or dangerous`,
		"a:\n    command: x\n    alwaysAllow: [p]\n":                            "line 4: mcp_servers.a.alwaysAllow: unknown key",
		"bad.name:\n    command: x\n":                                           "mcp_servers.bad.name: the name must be 1 to 32 letters, digits, '_' or '-'",
		strings.Repeat("n", 33) + ":\n    command: x\n":                         "the name must be 1 to 32",
		"a__b:\n    command: x\n":                                               "mcp_servers.a__b: the name must not contain \"__\"",
		"_a:\n    command: x\n":                                                 "mcp_servers._a: the name must not contain",
		"builtin:\n    command: x\n":                                            "mcp_servers.builtin: \"builtin\" names the built-in tools",
		"a:\n    command: x\n    enabled: maybe\n":                              "line 4: cannot unmarshal !!str `***` into bool",
		"a:\n    command: x\n    call_timeout: soon\n":                          "line 4: cannot unmarshal !!str `***` into time.Duration",
		"a:\n    command: x\n  a:\n    command: y\n":                            `mapping key "a" already defined`,
	} {
		file := writeFile(t, "c.yaml", "mcp_servers:\n  "+body)
		if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n err = %v\nwant %q", body, err, want)
		}
	}
	// A disabled entry is still checked: it is part of the file.
	file := writeFile(t, "c.yaml", "mcp_servers:\n  a:\n    enabled: false\n")
	if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), "mcp_servers.a.command") {
		t.Errorf("disabled entry: %v", err)
	}
}

// TestMCPResolveVariables: ${VAR:-default} takes the default when VAR
// is unset or empty; an unset ${VAR} without one, or a malformed
// reference, is an error naming the server, the field and the variable,
// never a value, matching ErrMCPVariable.
func TestMCPResolveVariables(t *testing.T) {
	c := Defaults()
	c.MCPServers = map[string]MCPServer{
		"api": {URL: "${BASE:-https://api.example.com}/mcp", Headers: map[string]string{"Authorization": "Bearer ${API_KEY}", "X-Team": "${TEAM:-ops}"}},
		"sh":  {Command: "run", Args: []string{"$HOME", "a${EMPTY}b", "${EMPTY:-d}", "cost $5"}, Env: map[string]string{"T": "${TOKEN}"}, EnabledTools: []string{}},
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	rs, err := c.ResolveMCPServers(env(map[string]string{"API_KEY": "k3y", "TOKEN": "t0k", "EMPTY": ""}))
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.URL != "https://api.example.com/mcp" || r.Headers["Authorization"] != "Bearer k3y" || r.Headers["X-Team"] != "ops" {
		t.Fatalf("%+v", r)
	}
	if r := rs[1]; !reflect.DeepEqual(r.Args, []string{"$HOME", "ab", "d", "cost $5"}) || r.Env["T"] != "t0k" || r.EnabledTools != nil {
		t.Fatalf("%+v", r)
	}

	// An unset variable: that server alone is unavailable, naming the
	// field and the variable; no value of the server is kept.
	rs, err = c.ResolveMCPServers(env(map[string]string{"TOKEN": "t0k-secret", "EMPTY": ""}))
	if err != nil || len(rs) != 2 || rs[1].Unavailable != "" || rs[1].Env["T"] != "t0k-secret" ||
		!reflect.DeepEqual(rs[0], mcp.ServerConfig{Name: "api", Unavailable: "mcp_servers.api.headers.Authorization: environment variable API_KEY is not set"}) {
		t.Fatalf("unset: %+v, %v", rs, err)
	}
	// A malformed reference is an error of the file.
	for ref, want := range map[string]string{
		"${":     "mcp_servers.x.args[0]: unterminated ${",
		"${1X}":  "mcp_servers.x.args[0]: ${1X} is not a variable name",
		"${A-B}": "${A-B} is not a variable name",
		"${}":    "${} is not a variable name",
	} {
		c.MCPServers = map[string]MCPServer{"x": {Command: "run", Args: []string{ref}}}
		if _, err := c.ResolveMCPServers(env(nil)); !errors.Is(err, ErrMCPVariable) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", ref, err, want)
		}
	}
	c.MCPServers = map[string]MCPServer{"x": {Command: "run", Args: []string{"pre ${NOPE}", "${NOPE2}"}}}
	if rs, err := c.ResolveMCPServers(env(nil)); err != nil || len(rs) != 1 ||
		rs[0].Unavailable != "mcp_servers.x.args[0]: environment variable NOPE is not set; mcp_servers.x.args[1]: environment variable NOPE2 is not set" {
		t.Errorf("unset in args: %+v, %v", rs, err)
	}
	// The checks of the expanded values make that server unavailable.
	c.MCPServers = map[string]MCPServer{"x": {URL: "${BASE}/mcp"}, "y": {Command: "${CMD}"}, "z": {URL: "http://h/", Headers: map[string]string{"Authorization": "${TOK}"}},
		"w": {URL: "${BASE2}/mcp"}, "ok": {Command: "run"}}
	rs, err = c.ResolveMCPServers(env(map[string]string{"BASE": "ftp://h", "BASE2": "http://u:s3cr3t@h:xx", "CMD": "", "TOK": "x\r\nX-Evil: 1"}))
	if err != nil || len(rs) != 5 {
		t.Fatalf("expanded checks: %+v, %v", rs, err)
	}
	for i, want := range []string{"", "mcp_servers.w.url: once expanded, not a valid http(s) URL", "mcp_servers.x.url: once expanded, not a valid http(s) URL",
		"mcp_servers.y.command: empty once expanded", "mcp_servers.z.headers.Authorization: a control character once expanded"} {
		if got := rs[i].Unavailable; want == "" && got != "" || !strings.HasPrefix(got, want) || strings.Contains(got, "X-Evil") || strings.Contains(got, "s3cr3t") {
			t.Errorf("%s: %q, want %q", rs[i].Name, got, want)
		}
	}
}

// TestMCPStringRedacts: the logged configuration shows env and header
// names and references but no values, nor a URL's password, and the
// caller's servers keep theirs.
func TestMCPStringRedacts(t *testing.T) {
	c := Defaults()
	c.MCPServers = map[string]MCPServer{
		"db": {Command: "pg-mcp", Env: map[string]string{"PGPASSWORD": "hunter2"},
			Args: []string{"postgres://app:dbpa55@db/prod", "--password=argpa55", "--token", "argt0ken", "/srv"}},
		"api": {URL: "https://bob:s3cret@h.example/mcp?key=qu3ry&team=${TEAM}", Headers: map[string]string{"Authorization": "Bearer abc123"}},
	}
	s := c.String()
	for _, secret := range []string{"hunter2", "s3cret", "abc123", "dbpa55", "argpa55", "argt0ken", "qu3ry"} {
		if strings.Contains(s, secret) {
			t.Errorf("%q in String():\n%s", secret, s)
		}
	}
	for _, shown := range []string{"PGPASSWORD: <redacted>", "Authorization: <redacted>", "pg-mcp", "bob:***@h.example", "key=***&team=${TEAM}", "/srv", "postgres://app:***@db/prod", "--token"} {
		if !strings.Contains(s, shown) {
			t.Errorf("%q not in String():\n%s", shown, s)
		}
	}
	if c.MCPServers["db"].Env["PGPASSWORD"] != "hunter2" || c.MCPServers["api"].URL != "https://bob:s3cret@h.example/mcp?key=qu3ry&team=${TEAM}" || c.MCPServers["db"].Args[1] != "--password=argpa55" {
		t.Fatal("String changed the caller's servers")
	}
}

// TestMCPJSON: a Claude-style .mcp.json (Claude Code's documented
// shape, with and without type, stdio and http) named by --mcp-config,
// OPSASSIST_MCP_CONFIG or mcp_config adds its servers to mcp_servers.
func TestMCPJSON(t *testing.T) {
	sample, err := filepath.Abs("testdata/claude.mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	yamlFile := writeFile(t, "c.yaml", "mcp_servers:\n  local:\n    command: ./my-server\n")
	check := func(how string, c Config, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		if len(c.MCPServers) != 4 || c.MCPServers["local"].Command != "./my-server" || c.MCPConfig != sample {
			t.Fatalf("%s: %+v", how, c.MCPServers)
		}
		rs, err := c.ResolveMCPServers(env(map[string]string{"API_KEY": "k"}))
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		want := []mcp.ServerConfig{
			{Name: "api-server", URL: "https://api.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer k"}, StartupTimeout: DefaultMCPStartupTimeout, CallTimeout: DefaultMCPCallTimeout},
			{Name: "filesystem", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"}, Env: map[string]string{}, StartupTimeout: DefaultMCPStartupTimeout, CallTimeout: DefaultMCPCallTimeout},
			{Name: "local", Command: "./my-server", StartupTimeout: DefaultMCPStartupTimeout, CallTimeout: DefaultMCPCallTimeout},
			{Name: "shared-server", Command: "/path/to/server", Env: map[string]string{}, StartupTimeout: DefaultMCPStartupTimeout, CallTimeout: DefaultMCPCallTimeout},
		}
		if !reflect.DeepEqual(rs, want) {
			t.Fatalf("%s:\n%+v\nwant\n%+v", how, rs, want)
		}
	}
	key := map[string]string{"API_KEY": "k"}
	c, err := load(t, []string{"--config", yamlFile, "--mcp-config", sample}, key)
	check("flag", c, err)
	c, err = load(t, []string{"--config", yamlFile}, map[string]string{"OPSASSIST_MCP_CONFIG": sample, "API_KEY": "k"})
	check("env", c, err)
	withKey := writeFile(t, "k.yaml", "mcp_config: "+sample+"\nmcp_servers:\n  local:\n    command: ./my-server\n")
	c, err = load(t, []string{"--config", withKey}, key)
	check("key", c, err)

	// Claude Desktop's file: other settings beside mcpServers, no YAML file.
	c, err = load(t, []string{"--mcp-config", "testdata/claude_desktop_config.json"}, nil)
	if err != nil || c.MCPServers["everything"].Args[1] != "@modelcontextprotocol/server-everything" {
		t.Fatalf("desktop: %+v, %v", c.MCPServers, err)
	}
}

// TestMCPJSONErrors: a name in both files is refused naming both; a
// server with an unknown key, an sse server, a file that is not a
// .mcp.json or is missing are refused naming the file.
func TestMCPJSONErrors(t *testing.T) {
	yamlFile := writeFile(t, "c.yaml", "mcp_servers:\n  filesystem:\n    command: x\n")
	_, err := load(t, []string{"--config", yamlFile, "--mcp-config", "testdata/claude.mcp.json"}, map[string]string{"API_KEY": "k"})
	if !errors.Is(err, ErrMCPDuplicate) || !strings.Contains(err.Error(), "mcp_servers.filesystem is in both "+yamlFile+" and testdata/claude.mcp.json") {
		t.Fatalf("duplicate: %v", err)
	}
	for body, want := range map[string]string{
		`{"mcpServers": {"a": {"command": "x", "autoApprove": ["y"]}}}`:                                                          `mcpServers.a: json: unknown field "autoApprove"`,
		`{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}`:                                                          "mcp_servers.a.type: sse is not supported, use streamable HTTP",
		`{"mcpServers": {"a": {"command": ["x"]}}}`:                                                                              "mcpServers.a: json: cannot unmarshal",
		`{"x": [1, {"mcpServers": 2}], "mcpServers": {"a": {"command": "x"}, "b": {"url": "http://h/"}, "a": {"command": "y"}}}`: "mcpServers.a is defined twice in",
		`{"servers": {}}`: `no "mcpServers" object`,
		`{"mcpServers": `: "unexpected end of JSON input",
		`[]`:              "cannot unmarshal array",
		`{"mcpServers": {"a b": {"command": "x"}}}`:                     "mcp_servers.a b: the name must be",
		`{"mcpServers": {"a": {"type": "http", "url": "file:///etc"}}}`: `mcp_servers.a.url: scheme "file" is not http or https`,
	} {
		file := writeFile(t, ".mcp.json", body)
		_, err := load(t, []string{"--mcp-config", file}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\n err = %v\nwant %q", body, err, want)
		}
	}
	if _, err := load(t, []string{"--mcp-config", "/nonexistent/.mcp.json"}, nil); err == nil || !strings.Contains(err.Error(), "mcp_config: open /nonexistent/.mcp.json") {
		t.Fatalf("missing: %v", err)
	}
}

// TestMCPDocExamples: the YAML and .mcp.json examples of docs/mcp.md's
// Configuration section load and resolve.
func TestMCPDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Configuration\n")
	if !ok {
		t.Fatal("docs/mcp.md has no Configuration section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	block := func(lang string) string {
		_, rest, ok := strings.Cut(section, "```"+lang+"\n")
		if !ok {
			t.Fatalf("no %s example", lang)
		}
		body, _, _ := strings.Cut(rest, "```")
		return body
	}
	vars := map[string]string{"GITHUB_TOKEN": "g", "API_KEY": "k"}
	for _, ex := range []struct {
		args             []string
		servers, enabled int
	}{
		{[]string{"--config", writeFile(t, "c.yaml", block("yaml"))}, 4, 3},
		{[]string{"--mcp-config", writeFile(t, ".mcp.json", block("json"))}, 3, 3},
	} {
		c, err := load(t, ex.args, vars)
		if err != nil {
			t.Fatalf("%v: %v", ex.args, err)
		}
		rs, err := c.ResolveMCPServers(env(vars))
		if err != nil || len(c.MCPServers) != ex.servers || len(rs) != ex.enabled {
			t.Fatalf("%v: %d resolved of %d, %v", ex.args, len(rs), len(c.MCPServers), err)
		}
	}
}

// TestMCPURLReasonsHideSecrets: a url (or env or header name, or a
// ${VAR:-default}) that is refused never has its reason quote a piece
// of it, which may be a password — neither once expanded (the reason
// shown in /api/tools, /api/health and the log) nor as written in the
// file (the error that stops the daemon). The parser's own text quotes
// pieces: `invalid port ":s3cr" after host`, `invalid URL escape "%zz"`.
func TestMCPURLReasonsHideSecrets(t *testing.T) {
	pieces := func(pw string) []string { return []string{pw, pw[:4], pw[len(pw)-4:], "%zz"} }
	for _, pw := range []string{"s3cr/etValue", "ab%zzcdef", "p@ss:wo rd", "pa ss\x7fzqxv"} {
		c := Defaults()
		c.MCPServers = map[string]MCPServer{"gh": {URL: "https://bob:${PASS}@mcp.example.com/mcp"}}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		rs, err := c.ResolveMCPServers(env(map[string]string{"PASS": pw}))
		if err != nil || len(rs) != 1 || rs[0].Unavailable != "mcp_servers.gh.url: once expanded, not a valid http(s) URL" {
			t.Errorf("PASS=%q: %+v, %v", pw, rs, err)
		}
		// The same password written in the file.
		file := writeFile(t, "c.yaml", fmt.Sprintf("mcp_servers:\n  gh:\n    url: %q\n", "https://bob:"+pw+"@mcp.example.com/mcp"))
		_, err = load(t, []string{"--config", file}, nil)
		if err == nil || !strings.Contains(err.Error(), "mcp_servers.gh.url: not a valid URL") {
			t.Errorf("in the file, %q: %v", pw, err)
			continue
		}
		for _, p := range pieces(pw) {
			if strings.Contains(err.Error(), p) {
				t.Errorf("in the file, %q: %q shown: %v", pw, p, err)
			}
		}
	}
	// user:password@host without a scheme: "user" is the parser's
	// scheme and the password its opaque part.
	file := writeFile(t, "c.yaml", "mcp_servers:\n  gh:\n    url: \"bob:hunter2pw@mcp.example.com/mcp\"\n")
	if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), "mcp_servers.gh.url: not an http or https URL") ||
		strings.Contains(err.Error(), "hunter2pw") || strings.Contains(err.Error(), "bob") {
		t.Errorf("no scheme: %v", err)
	}
	// Names pasted with their value: "TOKEN=…", "Authorization: Bearer …".
	file = writeFile(t, "c.yaml", "mcp_servers:\n  a:\n    command: x\n    env: {\"TOKEN=hunter2pw\": x}\n  b:\n    url: http://h/\n    headers: {\"Authorization: Bearer hunter2pw\": x}\n")
	if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), `mcp_servers.a.env: "TOKEN"… is not a variable name`) ||
		!strings.Contains(err.Error(), `mcp_servers.b.headers: "Authorization"… is not a header name`) || strings.Contains(err.Error(), "hunter2pw") {
		t.Errorf("names with values: %v", err)
	}
	// A malformed reference with a default written in place.
	c := Defaults()
	c.MCPServers = map[string]MCPServer{"x": {Command: "run", Args: []string{"${API-KEY:-hunter2pw}"}}}
	if _, err := c.ResolveMCPServers(env(nil)); !errors.Is(err, ErrMCPVariable) || !strings.Contains(err.Error(), "${API-KEY:-…} is not a variable name") ||
		strings.Contains(err.Error(), "hunter2pw") {
		t.Errorf("default in a bad reference: %v", err)
	}
}

// TestMCPResolveHidesExpandedCommandAndCwd: what ${VAR} references put
// into command and cwd is Hidden (each value, the whole field), so the
// errors of starting the child (exec: "…": not found, chdir …) do not
// show it; a field without a reference adds nothing.
func TestMCPResolveHidesExpandedCommandAndCwd(t *testing.T) {
	file := writeFile(t, "c.yaml", "mcp_servers:\n  a:\n    command: ${TOOLS}/bin/${NAME:-srv}\n    cwd: ${WORK}\n  b:\n    command: plain\n    cwd: /srv\n")
	vars := map[string]string{"TOOLS": "/opt/s3cr3t-tools", "WORK": "/home/op/w0rk"}
	c, err := load(t, []string{"--config", file}, vars)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.ResolveMCPServers(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/opt/s3cr3t-tools", "srv", "/opt/s3cr3t-tools/bin/srv", "/home/op/w0rk"}
	if rs[0].Command != "/opt/s3cr3t-tools/bin/srv" || !reflect.DeepEqual(rs[0].Hidden, want) {
		t.Fatalf("a: command %q, hidden %q, want %q", rs[0].Command, rs[0].Hidden, want)
	}
	if rs[1].Hidden != nil {
		t.Fatalf("b: hidden %q", rs[1].Hidden)
	}
}
