package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/cli"
	"opsassist/config"
	"opsassist/tools/audit"
)

// TestMCPToolsVisibleAndDirect: with an MCP server ready and one that
// never starts, "opsassist tools" lists the server's tool (source mcp:t)
// and both servers' states; a direct call of the tool, whose configured
// risk (sensitive) the policy asks about, runs without a question and is
// audited direct, decided_by direct — over HTTP, over NPLT from the
// one-shot "opsassist tool" and from the REPL's /tool; "tools" lists over
// NPLT and, with --http, over HTTP alike.
func TestMCPToolsVisibleAndDirect(t *testing.T) {
	url := mcpEchoServer(t)
	data := t.TempDir()
	a := startApp(t, data, func(c *config.Config) {
		c.MCPServers = map[string]config.MCPServer{
			"t":    {URL: url, Risk: map[string]string{"echo": "sensitive"}},
			"dead": {Command: "sleep", Args: []string{"1000"}},
		}
	})
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	healthComponent(t, base, "mcp:t", "ready (1 tools")

	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prog := &cli.CLI{Stdout: &out, Stderr: &errOut}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "tools"}); code != cli.ExitOK {
		t.Fatalf("tools: exit %d: %s", code, errOut.String())
	}
	for _, w := range []string{"mcp__t__echo", "mcp:t", "sensitive", "sys_monitor", "builtin", "MCP servers:", "  t: ready, 1 tools", "  dead: "} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("tools output lacks %q:\n%s", w, out.String())
		}
	}
	overNPLT := out.String()
	out.Reset()
	if code := prog.Run(ctx, []string{"--http", a.HTTPAddr().String(), "tools"}); code != cli.ExitOK || !strings.Contains(out.String(), "mcp__t__echo") || !strings.Contains(overNPLT, strings.SplitN(out.String(), "\n", 2)[0]) {
		t.Fatalf("tools --http: exit %d: %s\n%s", code, out.String(), errOut.String())
	}

	res, err := http.Post(base+"/api/tools/mcp__t__echo", "application/json", strings.NewReader(`{"arguments":{"text":"direct"}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"success":true`) || !strings.Contains(string(body), "echo: direct") {
		t.Fatalf("direct call: %d %s", res.StatusCode, body)
	}

	out.Reset()
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "tool", "mcp__t__echo", `{"text":"one-shot"}`}); code != cli.ExitOK || !strings.Contains(out.String(), "echo: one-shot\n(mcp__t__echo: ok") {
		t.Fatalf("tool: exit %d:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}

	out.Reset()
	errOut.Reset()
	prog = &cli.CLI{Stdin: strings.NewReader("/tool mcp__t__echo {\"text\":\"from the repl\"}\n/quit\n"), Stdout: &out, Stderr: &errOut}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String()}); code != cli.ExitOK {
		t.Fatalf("repl: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "echo: from the repl\n(mcp__t__echo: ok") {
		t.Fatalf("repl /tool:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}

	var direct int
	files, _ := filepath.Glob(filepath.Join(data, audit.DirName, "*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct {
				Tool, Decision, Status string
				DecidedBy              string `json:"decided_by"`
				Direct                 bool
			}
			if json.Unmarshal([]byte(line), &r) == nil && r.Tool == "mcp__t__echo" {
				if !r.Direct || r.Decision != "ask" || r.DecidedBy != "direct" || r.Status != "ok" {
					t.Errorf("audit %s", line)
				}
				direct++
			}
		}
	}
	if direct != 3 {
		t.Fatalf("%d direct audit records of mcp__t__echo, want 3", direct)
	}
}
