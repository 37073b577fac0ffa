package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/config"
	"opsassist/tools/command"
)

// testConfig is the default configuration with every listener on a free
// loopback port and the data (and workspace) under data.
func testConfig(data string) config.Config {
	cfg := config.Defaults()
	cfg.NPLT, cfg.HTTP, cfg.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.Data, cfg.Workspace = data, filepath.Join(data, "workspace")
	return cfg
}

// startApp starts a daemon on data with no documents to index. The
// tests that talk to a whole daemon over its protocols are in e2e.
func startApp(t *testing.T, data string) *App {
	t.Helper()
	cfg := testConfig(data)
	cfg.Search.DocRoots = nil
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

// stop shuts a daemon down within 10 s.
func stop(t *testing.T, a *App) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestPlannersNeedTheirKeys(t *testing.T) {
	cfg := config.Defaults()
	cfg.Providers = []config.Provider{{Name: "corp", BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "CORP_KEY"}}
	env := map[string]string{"DEEPSEEK_API_KEY": "sk-x"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	planners, models := newPlanners(cfg, command.Tiers{}, lookup, zaptest.NewLogger(t))
	// ollama needs no key; corp, zhipu and openai have none set.
	if got := strings.Join(models, " "); got != "builtin deepseek ollama" {
		t.Fatalf("models %q", got)
	}
	if planners["corp"] != nil || planners["deepseek"] == nil {
		t.Fatal("planner set")
	}
	if m := defaultModel("zhipu", models, zaptest.NewLogger(t)); m != "builtin" {
		t.Fatal(m)
	}
	if m := defaultModel("deepseek", models, zaptest.NewLogger(t)); m != "deepseek" {
		t.Fatal(m)
	}
}
