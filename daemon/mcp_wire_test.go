package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"opsassist/config"
	"opsassist/tools/audit"
	"opsassist/transport/mcpserver"
)

// startAppWith starts a daemon on data, its configuration changed by
// edit.
func startAppWith(t *testing.T, data string, edit func(*config.Config)) *App {
	t.Helper()
	cfg := testConfig(data)
	cfg.Search.DocRoots = nil
	edit(&cfg)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	return a
}

// bearer adds a token to every request of an SDK client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// mcpListAndCall connects an SDK client to url with token, checks that
// it lists exactly the five built-in tools, and calls sys_monitor.
func mcpListAndCall(t *testing.T, url, token string) {
	t.Helper()
	ctx := context.Background()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "acceptance", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil || tl.Annotations == nil {
			t.Errorf("%s: no schema or annotations", tl.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"command_executor", "file_download", "file_upload", "semantic_search", "sys_monitor"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sys_monitor", Arguments: map[string]any{"metric": "cpu"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError || len(r.Content) == 0 || r.StructuredContent == nil {
		t.Fatalf("sys_monitor: %+v", r)
	}
}

// auditText is the daemon's audit log so far.
func auditText(t *testing.T, data string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(data, audit.DirName, "*.jsonl"))
	var b strings.Builder
	for _, f := range files {
		c, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(c)
	}
	return b.String()
}

// TestDaemonServesMCP is the acceptance test: /mcp of a whole daemon
// lists the five tools and calls sys_monitor from an SDK client.
func TestDaemonServesMCP(t *testing.T) {
	data := t.TempDir()
	a := startApp(t, data)
	defer stop(t, a)
	if a.MCPServer() == nil {
		t.Fatal("no MCP server")
	}
	mcpListAndCall(t, "http://"+a.HTTPAddr().String()+"/mcp", "")
	if log := auditText(t, data); !strings.Contains(log, `"tool":"sys_monitor"`) || !strings.Contains(log, `"client":"mcp"`) {
		t.Fatalf("audit %s", log)
	}
}

// mcpPost posts body to /mcp with extra headers (Host sets the Host).
func mcpPost(t *testing.T, url, body string, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	return res.StatusCode, string(b)
}

// TestDaemonMCPWithUsers: with users configured, /mcp wants a user's
// token, the audit log names the user with client type mcp, and other
// Hosts, other origins, malformed and oversized requests are refused
// while the server goes on serving.
func TestDaemonMCPWithUsers(t *testing.T) {
	const token, other = "ops-token-0123456789", "eve-token-0123456789"
	sum, esum := sha256.Sum256([]byte(token)), sha256.Sum256([]byte(other))
	data := t.TempDir()
	a := startAppWith(t, data, func(c *config.Config) {
		c.Users = []config.User{{Name: "ops", Role: "operator", TokenSHA256: hex.EncodeToString(sum[:])},
			{Name: "eve", Role: "operator", TokenSHA256: hex.EncodeToString(esum[:])}}
	})
	defer stop(t, a)
	url := "http://" + a.HTTPAddr().String() + "/mcp"
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	auth := "Bearer " + token
	for name, tc := range map[string]struct {
		body   string
		hdr    []string
		status int
	}{
		"no token":     {init, nil, http.StatusUnauthorized},
		"wrong token":  {init, []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized},
		"cross-origin": {init, []string{"Authorization", auth, "Origin", "https://evil.example"}, http.StatusForbidden},
		"malformed":    {`{"jsonrpc":"2.0","id":`, []string{"Authorization", auth}, http.StatusBadRequest},
		"oversized":    {`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`, []string{"Authorization", auth}, http.StatusRequestEntityTooLarge},
	} {
		if status, body := mcpPost(t, url, tc.body, tc.hdr...); status != tc.status || !strings.Contains(body, `"message"`) {
			t.Errorf("%s: %d %s, want %d with a message", name, status, body, tc.status)
		}
	}
	// With a token the Host is not checked (a same-host reverse proxy
	// keeps its own): /mcp as /api, one rule (transport/web checkHost).
	if status, body := mcpPost(t, url, init, "Authorization", auth, "Host", "ops.example.com"); status != http.StatusOK {
		t.Errorf("proxied Host with a token: %d %s, want 200", status, body)
	}
	mcpListAndCall(t, url, token)
	mcpDownload(t, url, token, other, filepath.Join(data, "workspace"))
	log := auditText(t, data)
	if !strings.Contains(log, `"user":"ops"`) || !strings.Contains(log, `"client":"mcp"`) {
		t.Fatalf("audit %s", log)
	}
}

// mcpDownload offers a file of dir over MCP with token and fetches the
// offer's URL with the same token; another user's request for it is
// refused.
func mcpDownload(t *testing.T, url, token, other, dir string) {
	t.Helper()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte("hello mcp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "acceptance", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_download", Arguments: map[string]any{"file_path": path}})
	if err != nil {
		t.Fatal(err)
	}
	offer, _ := r.Meta[mcpserver.MetaOffer].(map[string]any)
	link, _ := offer["download_url"].(string)
	if r.IsError || link == "" {
		t.Fatalf("file_download: %+v", r)
	}
	get := func(tok string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, link, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := get(other); status != http.StatusNotFound {
		t.Fatalf("another user's GET %s: %d %q, want 404", link, status, body)
	}
	if status, body := get(token); status != http.StatusOK || body != "hello mcp\n" {
		t.Fatalf("GET %s: %d %q", link, status, body)
	}
}
