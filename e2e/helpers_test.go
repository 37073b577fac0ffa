package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/client"
	"opsassist/config"
	"opsassist/daemon"
)

// daemonConfig is the default configuration with every listener on a
// free loopback port and the data (and workspace) under data.
func daemonConfig(data string) config.Config {
	cfg := config.Defaults()
	cfg.NPLT, cfg.HTTP, cfg.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.Data, cfg.Workspace = data, filepath.Join(data, "workspace")
	return cfg
}

// startApp starts a whole daemon on data, with two documents (a
// database guide in Chinese, a certificates note) as its search docs,
// after applying opts to its configuration.
func startApp(t *testing.T, data string, opts ...func(*config.Config)) *daemon.App {
	t.Helper()
	cfg := daemonConfig(data)
	docs := filepath.Join(data, "docs")
	os.MkdirAll(docs, 0o755)
	os.WriteFile(filepath.Join(docs, "database.md"), []byte("# 数据库配置\n\n编辑 /etc/app/db.yaml，设置 host 与 port（默认 5432），然后重启服务。\n"), 0o600)
	os.WriteFile(filepath.Join(docs, "tls.md"), []byte("# Certificates\n\nRenew TLS certificates with certbot every 60 days.\n"), 0o600)
	cfg.Search.DocRoots = []string{docs}
	for _, o := range opts {
		o(&cfg)
	}
	return start(t, cfg)
}

// start validates cfg and starts a daemon on it.
func start(t *testing.T, cfg config.Config) *daemon.App {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := daemon.New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	return a
}

// stop shuts a daemon down within 10 s.
func stop(t *testing.T, a *daemon.App) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

// chatOnce sends one message and returns the answer's text and events.
func chatOnce(ctx context.Context, t *testing.T, conn *client.Conn, q string) (string, []client.Event) {
	t.Helper()
	var text strings.Builder
	var evs []client.Event
	if err := conn.Chat(ctx, q, func(e client.Event) {
		evs = append(evs, e)
		if e.Type == client.EventDelta {
			text.WriteString(e.Text)
		}
	}); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return text.String(), evs
}
