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

// confirmer is a fake Call.Confirm that answers with allowed and
// records what it was asked.
type confirmer struct {
	allowed bool
	asked   []tools.Confirmation
}

func (c *confirmer) confirm(_ context.Context, cf tools.Confirmation) (tools.Confirmed, error) {
	c.asked = append(c.asked, cf)
	return tools.Confirmed{Allowed: c.allowed, By: tools.ByUser}, nil
}

// TestPolicyThroughRegistry runs calls through the Registry with the
// real policy and a fake confirmation: a file outside the roots and an
// ask-tier command run once allowed and not when denied; a secret, a
// deny-list command and a denied rule are refused without a question;
// reads inside the roots are not asked about; without anyone to ask, the
// call is refused.
func TestPolicyThroughRegistry(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, other := filepath.Join(base, "ws"), filepath.Join(base, "other")
	for _, d := range []string{ws, filepath.Join(other, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outsideFile := filepath.Join(other, "hostname")
	for p, s := range map[string]string{filepath.Join(ws, "in.txt"): "inside\n", outsideFile: "web-01\n", filepath.Join(other, ".ssh", "id_rsa"): "KEY\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(other, ".ssh", "id_rsa"), filepath.Join(ws, "k")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: filepath.Join(base, "up"),
		Permissions: policy.Config{Rules: []policy.Rule{{Tool: "command_executor", Command: "head", Decision: tools.Deny}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	exec := func(c *confirmer, name string, args any) tools.Outcome {
		raw, _ := json.Marshal(args)
		call := &tools.Call{ToolCallID: "c1"}
		if c != nil {
			call.Confirm = c.confirm
		}
		return s.Registry.Execute(context.Background(), call, name, string(raw))
	}
	cat := func(p string) map[string]any { return map[string]any{"command": "cat", "args": []string{p}} }

	yes, no := &confirmer{allowed: true}, &confirmer{}
	if o := exec(yes, "command_executor", cat(outsideFile)); !o.Result.Success || !strings.Contains(string(o.Result.Output), "web-01") {
		t.Fatalf("allowed cat outside: %+v", o.Result)
	}
	if len(yes.asked) != 1 || yes.asked[0].Scope != "command_executor:cat "+other+"/" || yes.asked[0].ToolCallID != "c1" {
		t.Fatalf("asked %+v", yes.asked)
	}
	if o := exec(no, "command_executor", cat(outsideFile)); o.Result.Success || !strings.Contains(o.Result.Error, "declined") {
		t.Fatalf("denied cat outside: %+v", o.Result)
	}
	if o := exec(yes, "file_download", map[string]any{"file_path": outsideFile}); !o.Result.Success {
		t.Fatalf("allowed download outside: %+v", o.Result)
	}
	if o := exec(nil, "command_executor", cat(outsideFile)); o.Result.Success || !strings.Contains(o.Result.Error, "cannot be asked") {
		t.Fatalf("nobody to ask: %+v", o.Result)
	}
	// du is in the ask tier: not run when declined, run when allowed.
	du := map[string]any{"command": "du", "args": []string{"-s", ws}}
	if o := exec(no, "command_executor", du); o.Result.Success {
		t.Fatalf("declined du ran: %+v", o.Result)
	}
	if o := exec(yes, "command_executor", du); !o.Result.Success {
		t.Fatalf("allowed du: %+v", o.Result)
	}
	// Never asked: secrets, through a link inside the roots too, the
	// deny list, a deny rule. Not asked: reads inside the roots.
	asker := &confirmer{allowed: true}
	for _, tc := range []struct {
		tool string
		args any
		ok   bool
	}{
		{"command_executor", cat("/etc/shadow"), false},
		{"command_executor", cat(filepath.Join(other, ".ssh", "id_rsa")), false},
		{"command_executor", cat("k"), false},
		{"file_download", map[string]any{"file_path": filepath.Join(ws, "k")}, false},
		{"command_executor", map[string]any{"command": "rm", "args": []string{"-rf", "/"}}, false},
		{"command_executor", map[string]any{"command": "head", "args": []string{"in.txt"}}, false},
		{"command_executor", cat("in.txt"), true},
		{"sys_monitor", map[string]any{}, true},
	} {
		o := exec(asker, tc.tool, tc.args)
		if o.Result.Success != tc.ok {
			t.Errorf("%s %v: %+v", tc.tool, tc.args, o.Result)
		}
	}
	if len(asker.asked) != 0 {
		t.Fatalf("asked about %+v", asker.asked)
	}
}
