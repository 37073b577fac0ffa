package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap/zaptest"

	"opsassist/tools"
)

// TestToolsNeverReadTheDaemonsFiles: the daemon hands its data
// directory, config file and TLS files to the tools as protected: a
// command reading them, or a download of them, is denied without a
// question, even with the data directory reached through a link.
func TestToolsNeverReadTheDaemonsFiles(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "disk", "data")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "data")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(base, "opsassist.yaml")
	if err := os.WriteFile(conf, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(link)
	cfg.Search.DocRoots = nil
	cfg.File = conf
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	defer stop(t, a)
	cmd := tools.Spec{Name: "command_executor", Risk: tools.RiskSensitive}
	dl := tools.Spec{Name: "file_download", Risk: tools.RiskSensitive}
	for _, p := range []string{conf, link, real, filepath.Join(real, "history"), filepath.Join(link, "uploads")} {
		raw, _ := json.Marshal(map[string]any{"command": "ls", "args": []string{p}})
		if v := a.tools.Policy.Decide(context.Background(), &tools.Call{}, cmd, raw); v.Decision != tools.Deny {
			t.Errorf("ls %s: %v (%s), want deny", p, v.Decision, v.Reason)
		}
	}
	raw, _ := json.Marshal(map[string]any{"file_path": conf})
	if v := a.tools.Policy.Decide(context.Background(), &tools.Call{}, dl, raw); v.Decision != tools.Deny {
		t.Errorf("download %s: %v (%s), want deny", conf, v.Decision, v.Reason)
	}
}
