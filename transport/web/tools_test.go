package web

import (
	"encoding/json"
	"net/http"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

// fakeCatalog answers fixed lists.
type fakeCatalog struct {
	tools   []api.ToolInfo
	servers []api.MCPServerInfo
}

func (f fakeCatalog) Tools() []api.ToolInfo        { return f.tools }
func (f fakeCatalog) Servers() []api.MCPServerInfo { return f.servers }

// TestToolsCatalog: GET /api/tools needs credentials, and answers every
// caller — an admin, an operator, a viewer — the same catalog, tools and
// servers, in the documented JSON shape.
func TestToolsCatalog(t *testing.T) {
	fc := fakeCatalog{
		tools: []api.ToolInfo{
			{Name: "sys_monitor", Description: "System metrics.", Source: "builtin", Risk: "read_only", Parameters: json.RawMessage(`{"type":"object"}`), Available: true},
			{Name: "mcp__fs__read_file", Description: "Read a file.", Source: "mcp:fs", Risk: "read_only", Parameters: json.RawMessage(`{"type":"object"}`), Available: false},
		},
		servers: []api.MCPServerInfo{{Name: "fs", State: "ready", Tools: 1}, {Name: "dead", State: "unavailable", Reason: "exec: not found", Restarts: 2}},
	}
	e := newEnv(t, testkit.Scripted{}, withUsers(auditUsers(t)), func(c *Config, _ *chat.Config) { c.Catalog = fc })
	res, body := e.do(t, "GET", "/api/tools", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	want := `{"tools":[` +
		`{"name":"sys_monitor","description":"System metrics.","source":"builtin","risk":"read_only","parameters":{"type":"object"},"available":true},` +
		`{"name":"mcp__fs__read_file","description":"Read a file.","source":"mcp:fs","risk":"read_only","parameters":{"type":"object"},"available":false}],` +
		`"servers":[{"name":"fs","state":"ready","restarts":0,"tools":1},{"name":"dead","state":"unavailable","reason":"exec: not found","restarts":2,"tools":0}]}` + "\n"
	for _, tok := range []string{rootToken, aliceToken, bobToken} {
		res, body := e.do(t, "GET", "/api/tools", nil, bearer(tok)...)
		if res.StatusCode != http.StatusOK || string(body) != want {
			t.Fatalf("%s: %d %s\nwant %s", tok, res.StatusCode, body, want)
		}
	}
}

// TestToolsCatalogEmptyAndDisabled: empty lists are [] (not null); a
// server without a catalog answers 404.
func TestToolsCatalogEmptyAndDisabled(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Catalog = fakeCatalog{} })
	if res, body := e.do(t, "GET", "/api/tools", nil); res.StatusCode != http.StatusOK || string(body) != `{"tools":[],"servers":[]}`+"\n" {
		t.Fatalf("empty: %d %s", res.StatusCode, body)
	}
	off := newEnv(t, testkit.Scripted{})
	res, body := off.do(t, "GET", "/api/tools", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}
