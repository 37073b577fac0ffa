package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/tools"
	"opsassist/tools/toolset"
)

// TestPermissionPromptShowsEveryPath: a long first path does not push
// the second out of the prompt: each argument is cut on its own, and the
// reason names both files and what a session grant covers.
func TestPermissionPromptShowsEveryPath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	os.MkdirAll(ws, 0o755)
	s, err := toolset.New(toolset.Config{Workspace: ws, Roots: []string{ws}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	long := "/var/log/" + strings.Repeat("./", 150) + "dpkg.log"
	args, _ := json.Marshal(map[string]any{"command": "cat", "args": []string{long, "/etc/opsassist/opsassist.yaml"}})
	v := s.Policy.Decide(context.Background(), &tools.Call{}, tools.Spec{Name: "command_executor", Risk: tools.RiskSensitive}, args)
	shown := v.Shown
	if shown == nil {
		shown = args
	}
	p := api.PermissionRequest{Tool: "command_executor", Args: shown, Risk: "sensitive", Reason: v.Reason, ExpiresAt: time.Now().Add(time.Minute).Format(time.RFC3339)}
	out := PermissionPrompt(p, time.Now(), false)
	t.Logf("decision %v scope %q\n%s", v.Decision, v.Scope, out)
	first, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, "opsassist.yaml") || !strings.Contains(first, "dpkg.log") {
		t.Errorf("the prompt's call line does not name both files: %s", first)
	}
	if !strings.Contains(p.Reason, "opsassist.yaml") || !strings.Contains(p.Reason, "dpkg.log") || !strings.Contains(p.Reason, "cat on files in") {
		t.Errorf("the reason does not name both files and the grant's scope: %s", p.Reason)
	}
}
