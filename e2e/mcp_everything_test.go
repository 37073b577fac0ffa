package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/config"
)

// everythingServer is where `make test` installs the real third-party
// MCP server @modelcontextprotocol/server-everything (make
// mcp-everything), or "" with the reason it is not there.
func everythingServer() (string, string) {
	if p := os.Getenv("OPSASSIST_MCP_EVERYTHING"); p != "" {
		return p, ""
	}
	p, err := filepath.Abs("../.cache/mcp/node_modules/.bin/mcp-server-everything")
	if err != nil {
		return "", err.Error()
	}
	if _, err := os.Stat(p); err != nil {
		return "", "@modelcontextprotocol/server-everything is not installed (make mcp-everything needs npm and the npm registry): " + err.Error()
	}
	return p, ""
}

// TestMCPServerEverything: the real MCP server from npm, over stdio,
// through a whole daemon: its tools are listed by GET /api/tools, and a
// direct call of echo returns the text.
func TestMCPServerEverything(t *testing.T) {
	bin, why := everythingServer()
	if bin == "" {
		t.Skip(why)
	}
	a := startApp(t, t.TempDir(), func(c *config.Config) {
		c.MCPServers = map[string]config.MCPServer{"everything": {Command: bin, Args: []string{"stdio"}}}
	})
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	healthComponent(t, base, "mcp:everything", "ready")

	var cat api.Catalog
	res, err := http.Get(base + "/api/tools")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&cat)
	res.Body.Close()
	var names []string
	for _, tl := range cat.Tools {
		if tl.Source == "mcp:everything" {
			names = append(names, tl.Name)
		}
	}
	if !strings.Contains(strings.Join(names, " "), "mcp__everything__echo") {
		t.Fatalf("tools of server-everything: %v", names)
	}

	res, err = http.Post(base+"/api/tools/mcp__everything__echo", "application/json", strings.NewReader(`{"arguments":{"message":"hello from opsassist"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r api.ToolResult
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil || res.StatusCode != 200 {
		t.Fatalf("direct call: %d, %v", res.StatusCode, err)
	}
	if !r.Success || !strings.Contains(string(r.Output), "hello from opsassist") {
		t.Fatalf("echo: %+v, output %s", r, r.Output)
	}
}
