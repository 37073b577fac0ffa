package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/client"
	"opsassist/config"
	"opsassist/tools/audit"
)

// mcpEchoServer is a streamable HTTP MCP server with one read-only tool,
// echo, that answers "echo: TEXT".
func mcpEchoServer(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
	srv.AddTool(&sdk.Tool{Name: "echo", Description: "echoes its text", InputSchema: schema, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &a)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + a.Text}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// healthComponent polls /api/health until component's value starts
// with prefix, or fails after a generous deadline.
func healthComponent(t *testing.T, base, component, prefix string) string {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	last := ""
	for {
		var h struct {
			Components map[string]string `json:"components"`
		}
		if res, err := http.Get(base + "/api/health"); err == nil {
			json.NewDecoder(res.Body).Decode(&h)
			res.Body.Close()
			last = h.Components[component]
			if strings.HasPrefix(last, prefix) {
				return last
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s never became %q: last %q", component, prefix, last)
		}
	}
}

// TestMCPToolThroughTheDaemon: a server under mcp_servers starts in the
// background, its tool reaches the model as mcp__t__echo, the model's
// call goes through the registry (audited) to the server, and the
// result comes back; /api/health shows the server ready. A server that
// never starts (a command that sleeps) delays neither the start nor the
// first chat.
func TestMCPToolThroughTheDaemon(t *testing.T) {
	url := mcpEchoServer(t)
	model := newFakeOpenAI(t, `[{"index":0,"id":"call_1","type":"function","function":{"name":"mcp__t__echo","arguments":"{\"text\":\"hi\"}"}}]`)
	data := t.TempDir()
	a := startApp(t, data, func(c *config.Config) {
		c.Providers = []config.Provider{{Name: "fake", BaseURL: model.URL + "/v1", Model: "m"}}
		c.MCPServers = map[string]config.MCPServer{
			"t":    {URL: url},
			"dead": {Command: "sleep", Args: []string{"1000"}},
		}
	})
	stopped := false
	defer func() {
		if !stopped {
			stop(t, a)
		}
	}()
	base := "http://" + a.HTTPAddr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The first chat is answered while the dead server is still starting.
	if got, _ := chatOnce(ctx, t, conn, "磁盘还剩多少"); !strings.Contains(got, "磁盘") {
		t.Fatalf("first chat: %q", got)
	}
	if st := healthComponent(t, base, "mcp:dead", ""); !strings.HasPrefix(st, "starting") && !strings.HasPrefix(st, "unavailable") {
		t.Errorf("dead server: %q", st)
	}
	healthComponent(t, base, "mcp:t", "ready (1 tools")
	if _, err := conn.Model(ctx, "fake"); err != nil {
		t.Fatal(err)
	}
	chatOnce(ctx, t, conn, "echo hi")
	if got := model.toolMessages(t)["call_1"]; !strings.Contains(got, "echo: hi") {
		t.Fatalf("the model got %q for mcp__t__echo", got)
	}
	stop(t, a)
	stopped = true
	var found bool
	for _, r := range readAudit(t, filepath.Join(data, audit.DirName)) {
		if r.Tool == "mcp__t__echo" {
			found = r.Status == "ok" && r.Decision == "allow"
		}
	}
	if !found {
		t.Error("no ok audit record of mcp__t__echo")
	}
}
