package policy_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"opsassist/internal/asktest"
	"opsassist/tools"
	"opsassist/tools/policy"
	"opsassist/tools/toolset"
)

// recorder is a Call.Confirm that declines and records what it was
// asked, so a test sees whether a role was asked at all.
type recorder struct {
	mu    sync.Mutex
	asked []tools.Confirmation
}

func (r *recorder) confirm(_ context.Context, c tools.Confirmation) (tools.Confirmed, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, c)
	return tools.Confirmed{Allowed: false, By: tools.ByUser}, nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.asked)
}

// TestRolesThroughRegistry runs calls through the real tool set (the
// command executor and downloads inspecting their calls, the real
// Registry) for each built-in role: a viewer is refused an ask-tier
// command, a file outside the roots and a sensitive tool without ever
// being asked, and runs an allow-tier command; an operator is asked
// about the ask-tier command; an admin's own rule allows it for the
// admin alone.
func TestRolesThroughRegistry(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, other := filepath.Join(base, "ws"), filepath.Join(base, "other")
	for _, d := range []string{ws, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outsideFile := filepath.Join(other, "hostname")
	if err := os.WriteFile(outsideFile, []byte("web-01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "in.txt"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := toolset.New(toolset.Config{Workspace: ws, Roots: []string{ws}, UploadsDir: filepath.Join(base, "up"),
		Permissions: policy.Config{Roles: map[string]policy.Role{
			policy.RoleAdmin: {Rules: []policy.Rule{{Tool: "command_executor", Command: "systemctl restart nginx", Decision: tools.Allow}}},
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	probe := &asktest.Tool{}
	if err := s.Registry.Register(probe); err != nil {
		t.Fatal(err)
	}
	exec := func(role string, c *recorder, name string, args any) tools.Outcome {
		t.Helper()
		raw, _ := json.Marshal(args)
		return s.Registry.Execute(context.Background(), &tools.Call{ToolCallID: "c1", User: "u", Role: role, Confirm: c.confirm}, name, string(raw))
	}
	command := func(line string) map[string]any {
		w := strings.Fields(line)
		return map[string]any{"command": w[0], "args": w[1:]}
	}
	restart := command("systemctl restart nginx")

	viewer := &recorder{}
	for _, tc := range []struct {
		what string
		tool string
		args any
	}{
		{"ask-tier command", "command_executor", restart},
		{"file outside the roots", "command_executor", command("cat " + outsideFile)},
		{"download outside the roots", "file_download", map[string]any{"file_path": outsideFile}},
		{"sensitive tool", "probe", map[string]any{"unit": "nginx"}},
	} {
		o := exec(policy.RoleViewer, viewer, tc.tool, tc.args)
		if o.Result.Success || !strings.Contains(o.Result.Error, "denied by policy") || !strings.Contains(o.Result.Error, "Role viewer is read-only") {
			t.Errorf("viewer, %s: %+v", tc.what, o.Result)
		}
	}
	if n := viewer.count(); n != 0 {
		t.Fatalf("the viewer was asked %d times", n)
	}
	if runs := probe.Runs(); len(runs) != 0 {
		t.Fatalf("probe ran for the viewer: %v", runs)
	}
	if o := exec(policy.RoleViewer, viewer, "command_executor", command("df -h")); !o.Result.Success {
		t.Fatalf("viewer, df -h: %+v", o.Result)
	}
	if o := exec(policy.RoleViewer, viewer, "command_executor", command("cat in.txt")); !o.Result.Success || !strings.Contains(string(o.Result.Output), "inside") {
		t.Fatalf("viewer, cat inside the roots: %+v", o.Result)
	}

	operator := &recorder{}
	if o := exec(policy.RoleOperator, operator, "command_executor", restart); o.Result.Success || !strings.Contains(o.Result.Error, "declined") {
		t.Fatalf("operator, restart: %+v", o.Result)
	}
	if operator.count() != 1 || operator.asked[0].Scope != "command_executor:systemctl restart nginx" {
		t.Fatalf("operator asked %+v", operator.asked)
	}
	defaultRole := &recorder{}
	if o := exec("", defaultRole, "command_executor", restart); o.Result.Success || defaultRole.count() != 1 {
		t.Fatalf("default role (operator), restart: %+v, asked %d", o.Result, defaultRole.count())
	}

	// The admin's rule, decided by the real command inspector without
	// running systemctl here.
	args, _ := json.Marshal(restart)
	var spec tools.Spec
	for _, sp := range s.Registry.Specs() {
		if sp.Name == "command_executor" {
			spec = sp
		}
	}
	v := s.Policy.Decide(context.Background(), &tools.Call{Role: policy.RoleAdmin}, spec, args)
	if v.Decision != tools.Allow || !v.Approved || v.By != tools.DecidedByRule || v.Rule != "roles.admin.rules[0]" {
		t.Fatalf("admin: %+v", v)
	}
	v = s.Policy.Decide(context.Background(), &tools.Call{Role: policy.RoleOperator}, spec, args)
	if v.Decision != tools.Ask || v.By != tools.DecidedByDefault {
		t.Fatalf("operator under the admin's rule: %+v", v)
	}

	ghost := &recorder{}
	if o := exec("ghost", ghost, "sys_monitor", map[string]any{}); o.Result.Success || !strings.Contains(o.Result.Error, "Unknown role ghost") || ghost.count() != 0 {
		t.Fatalf("unknown role: %+v", o.Result)
	}
}
