package toolset

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/tools"
	"opsassist/tools/policy"
)

// TestAllowRuleCoversEveryResolvedPath: an operator's allow rule for one
// directory does not approve a call that also names a file in another
// directory outside the roots, nor a link inside the directory that
// points outside it: the call is asked about (and here refused).
func TestAllowRuleCoversEveryResolvedPath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, logs, other := filepath.Join(base, "ws"), filepath.Join(base, "logs"), filepath.Join(base, "other")
	for _, d := range []string{ws, logs, other} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(logs, "app.log"), []byte("log\n"), 0o644)
	os.WriteFile(filepath.Join(other, "private.txt"), []byte("NOT-FOR-YOU\n"), 0o644)
	os.Symlink(other, filepath.Join(logs, "lnk"))
	s, err := New(Config{Workspace: ws, Roots: []string{ws},
		Permissions: policy.Config{Rules: []policy.Rule{{Tool: "command_executor", Command: "cat", Path: logs + "/**", Decision: tools.Allow}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, args := range [][]string{
		{filepath.Join(logs, "app.log"), filepath.Join(other, "private.txt")},
		{filepath.Join(logs, "lnk", "private.txt")}, // written path matches the glob, resolved does not
	} {
		c := &confirmer{allowed: false}
		raw, _ := json.Marshal(map[string]any{"command": "cat", "args": args})
		o := s.Registry.Execute(context.Background(), &tools.Call{ToolCallID: "x", Confirm: c.confirm}, "command_executor", string(raw))
		if strings.Contains(string(o.Result.Output), "NOT-FOR-YOU") {
			t.Errorf("cat %v: read a file outside the rule's directory without asking (asked %d times)", args, len(c.asked))
		}
	}
}

// TestDataDirDeniedThroughLink: the uploads are denied by their resolved
// path: when the data dir is reached through a symbolic link, an
// approved command reads no upload, by the link or by the real path.
func TestDataDirDeniedThroughLink(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, real := filepath.Join(base, "ws"), filepath.Join(base, "disk", "data")
	os.MkdirAll(ws, 0o755)
	os.MkdirAll(filepath.Join(real, "uploads", "abc"), 0o755)
	os.WriteFile(filepath.Join(real, "uploads", "abc", "other.txt"), []byte("OTHER-CONVERSATION\n"), 0o644)
	os.Symlink(real, filepath.Join(base, "data")) // data -> disk/data
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: filepath.Join(base, "data", "uploads")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{filepath.Join(base, "data", "uploads", "abc", "other.txt"), filepath.Join(real, "uploads", "abc", "other.txt")} {
		c := &confirmer{allowed: true}
		raw, _ := json.Marshal(map[string]any{"command": "cat", "args": []string{p}})
		o := s.Registry.Execute(context.Background(), &tools.Call{ToolCallID: "x", Confirm: c.confirm}, "command_executor", string(raw))
		t.Logf("cat %s: asked=%d out=%s err=%s", p, len(c.asked), o.Result.Output, o.Result.Error)
		if strings.Contains(string(o.Result.Output), "OTHER-CONVERSATION") {
			t.Errorf("approved cat %s read an upload", p)
		}
	}
}

// TestDaemonFilesDenied: the daemon's data directory, config file and
// TLS key are refused to commands and downloads without a question, by
// the path as written and through a link; a workspace inside the data
// directory still works, and a download still reaches the uploads.
func TestDaemonFilesDenied(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(base, "data")
	ws := filepath.Join(data, "workspace")
	for _, d := range []string{ws, filepath.Join(data, "history"), filepath.Join(data, "uploads")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(data, "history", "s.json"): "HISTORY-OF-OTHERS\n",
		filepath.Join(base, "opsassist.yaml"):    "auth_token: CONFIG-TOKEN\n",
		filepath.Join(base, "tls.key"):           "TLS-KEY\n",
		filepath.Join(ws, "notes.txt"):           "in the workspace\n",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "opsassist.yaml"), filepath.Join(base, "conf-link")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: filepath.Join(data, "uploads"),
		Protected: []string{data, filepath.Join(base, "opsassist.yaml"), filepath.Join(base, "tls.key")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cmd := tools.Spec{Name: "command_executor", Risk: tools.RiskSensitive}
	dl := tools.Spec{Name: "file_download", Risk: tools.RiskSensitive}
	for _, p := range []string{filepath.Join(data, "history", "s.json"), filepath.Join(base, "opsassist.yaml"), filepath.Join(base, "conf-link"), filepath.Join(base, "tls.key")} {
		raw, _ := json.Marshal(map[string]any{"command": "cat", "args": []string{p}})
		if v := s.Policy.Decide(context.Background(), &tools.Call{}, cmd, raw); v.Decision != tools.Deny {
			t.Errorf("cat %s: %v (%s), want deny", p, v.Decision, v.Reason)
		}
		raw, _ = json.Marshal(map[string]any{"file_path": p})
		if v := s.Policy.Decide(context.Background(), &tools.Call{}, dl, raw); v.Decision != tools.Deny {
			t.Errorf("download %s: %v (%s), want deny", p, v.Decision, v.Reason)
		}
		c := &confirmer{allowed: true}
		raw, _ = json.Marshal(map[string]any{"command": "cat", "args": []string{p}})
		o := s.Registry.Execute(context.Background(), &tools.Call{ToolCallID: "x", Confirm: c.confirm}, "command_executor", string(raw))
		if strings.Contains(string(o.Result.Output), "CONFIG-TOKEN") || strings.Contains(string(o.Result.Output), "HISTORY") || len(c.asked) > 0 {
			t.Errorf("cat %s: asked %d, output %s", p, len(c.asked), o.Result.Output)
		}
	}
	raw, _ := json.Marshal(map[string]any{"command": "cat", "args": []string{"notes.txt"}})
	if v := s.Policy.Decide(context.Background(), &tools.Call{}, cmd, raw); v.Decision != tools.Allow {
		t.Errorf("cat notes.txt in the workspace: %v (%s), want allow", v.Decision, v.Reason)
	}
}

// TestRefusedWithoutAsking: a call its tool would refuse whatever the
// answer (a refused option, a denied path that cannot be resolved) is
// denied by the policy, not asked about.
func TestRefusedWithoutAsking(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Workspace: ws, Roots: []string{ws}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, args := range []map[string]any{
		{"command": "journalctl", "args": []string{"-n", "--cursor-file=/etc/passwd"}},
		{"command": "journalctl", "args": []string{"-n", "--disk-usage"}},
		{"command": "systemctl", "args": []string{"restart", "reboot.target"}},
		{"command": "systemctl", "args": []string{"restart", "--now", "nginx"}},
		{"command": "cat", "args": []string{"/proc/1/root/etc/shadow"}},
		{"command": "cat", "args": []string{"/dev/sda"}},
	} {
		raw, _ := json.Marshal(args)
		v := s.Policy.Decide(context.Background(), &tools.Call{}, tools.Spec{Name: "command_executor", Risk: tools.RiskSensitive}, raw)
		if v.Decision != tools.Deny {
			t.Errorf("%v: %v (%s), want deny", args, v.Decision, v.Reason)
		}
	}
}
