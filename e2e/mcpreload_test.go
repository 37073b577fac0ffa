package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/client"
	"opsassist/config"
)

// replaceFile writes s to path the way editors do: a temporary file
// renamed over the original, so no reader sees half a file.
func replaceFile(t *testing.T, path, s string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// healthWithout polls /api/health until component is absent, or fails
// after a generous deadline.
func healthWithout(t *testing.T, base, component string) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for {
		var h struct {
			Components map[string]string `json:"components"`
		}
		if res, err := http.Get(base + "/api/health"); err == nil {
			json.NewDecoder(res.Body).Decode(&h)
			res.Body.Close()
			if _, ok := h.Components[component]; !ok && h.Components != nil {
				return
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s still in /api/health", component)
		}
	}
}

// TestMCPHotReload: the daemon's config file is edited while it runs
// and an NPLT chat connection stays open: a server is added, one is
// changed (its tool disabled), one removed; /api/health follows each
// edit and the connection answers after each. A YAML syntax error keeps
// the servers and shows in health until a good edit.
func TestMCPHotReload(t *testing.T) {
	u1, u2 := mcpEchoServer(t), mcpEchoServer(t)
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	replaceFile(t, file, "mcp_servers:\n  a:\n    url: "+u1+"\n")
	a := startApp(t, t.TempDir(), func(c *config.Config) {
		if err := c.LoadFile(file); err != nil {
			t.Fatal(err)
		}
		c.File = file
	})
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	chatStillAnswers := func(step string) {
		t.Helper()
		if got, _ := chatOnce(ctx, t, conn, "磁盘还剩多少"); !strings.Contains(got, "磁盘") {
			t.Fatalf("%s: chat answered %q", step, got)
		}
	}
	healthComponent(t, base, "mcp:a", "ready (1 tools")
	if got := healthComponent(t, base, "config", ""); got != "ok" {
		t.Fatalf("config component at start: %q", got)
	}
	chatStillAnswers("start")

	// Add b.
	replaceFile(t, file, "mcp_servers:\n  a:\n    url: "+u1+"\n  b:\n    url: "+u2+"\n")
	healthComponent(t, base, "mcp:b", "ready (1 tools")
	healthComponent(t, base, "mcp:a", "ready (1 tools")
	chatStillAnswers("b added")

	// Change a: its tool disabled.
	replaceFile(t, file, "mcp_servers:\n  a:\n    url: "+u1+"\n    disabled_tools: [echo]\n  b:\n    url: "+u2+"\n")
	healthComponent(t, base, "mcp:a", "ready (0 tools")
	chatStillAnswers("a changed")

	// Remove a.
	replaceFile(t, file, "mcp_servers:\n  b:\n    url: "+u2+"\n")
	healthWithout(t, base, "mcp:a")
	chatStillAnswers("a removed")

	// A syntax error: b stays, the error shows.
	replaceFile(t, file, "mcp_servers: [\n  b:\n")
	if got := healthComponent(t, base, "config", "reload failed: "); !strings.Contains(got, "yaml") {
		t.Errorf("config component: %q", got)
	}
	healthComponent(t, base, "mcp:b", "ready (1 tools")
	chatStillAnswers("invalid edit")

	// A good edit again: ok, and it applies (b removed too).
	replaceFile(t, file, "mcp_servers: {}\n")
	healthComponent(t, base, "config", "ok")
	healthWithout(t, base, "mcp:b")
	chatStillAnswers("all removed")
}
