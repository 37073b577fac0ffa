package policy

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"opsassist/tools"
)

var (
	monSpec = tools.Spec{Name: "sys_monitor", Risk: tools.RiskReadOnly}
	// MCP tools as issue 14 will register them: the source in Source and
	// in the name.
	mcpFetch = tools.Spec{Name: "mcp__web__fetch", Source: "web", Risk: tools.RiskReadOnly}
	mcpPost  = tools.Spec{Name: "mcp__web__post", Source: "web", Risk: tools.RiskReadOnly}
	mcpWrite = tools.Spec{Name: "mcp__fs__write", Source: "fs", Risk: tools.RiskReadOnly}
)

// TestRoles: each role's decision, with By and Rule saying what decided.
func TestRoles(t *testing.T) {
	restartNginx := cmdTarget(tools.Ask, "systemctl restart nginx")
	dfH := cmdTarget(tools.Allow, "df -h")
	catOut := cmdTarget(tools.Allow, "cat /etc/hostname", outside("/etc/hostname"))
	allowRestart := Rule{Tool: "command_executor", Command: "systemctl restart nginx", Decision: tools.Allow}
	deployer := Role{Tools: map[string]tools.Decision{"builtin:*": tools.Allow, "builtin:command_executor": tools.Deny}}
	for _, tc := range []struct {
		name     string
		cfg      Config
		role     string
		spec     tools.Spec
		target   *Target
		want     tools.Decision
		approved bool
		by, rule string
	}{
		// viewer: read-only, never asked.
		{name: "viewer ask-tier command", role: RoleViewer, spec: execSpec, target: &restartNginx, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer allow-tier command", role: RoleViewer, spec: execSpec, target: &dfH, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "viewer path outside roots", role: RoleViewer, spec: execSpec, target: &catOut, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer download outside roots", role: RoleViewer, spec: dlSpec, target: &Target{Paths: []Path{outside("/etc/hostname")}}, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer sensitive tool", role: RoleViewer, spec: tools.Spec{Name: "probe", Risk: tools.RiskSensitive}, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer dangerous tool", role: RoleViewer, spec: tools.Spec{Name: "fs_write", Risk: tools.RiskDangerous}, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer read-only tool", role: RoleViewer, spec: monSpec, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "viewer: no allow rule widens", role: RoleViewer, cfg: Config{Rules: []Rule{allowRestart}}, spec: execSpec, target: &restartNginx, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer: role allow rule does not widen either", role: RoleViewer, cfg: Config{Roles: map[string]Role{RoleViewer: {Rules: []Rule{{Tool: "*", Decision: tools.Allow}}}}}, spec: dlSpec, target: &Target{Paths: []Path{outside("/etc/hostname")}}, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},
		{name: "viewer: deny rule tightens", role: RoleViewer, cfg: Config{Rules: []Rule{{Name: "permissions.rules[0]", Tool: "command_executor", Command: "df", Decision: tools.Deny}}}, spec: execSpec, target: &dfH, want: tools.Deny, by: tools.DecidedByRule, rule: "permissions.rules[0]"},
		{name: "viewer: ask rule is deny", role: RoleViewer, cfg: Config{Rules: []Rule{{Tool: "sys_*", Decision: tools.Ask}}}, spec: monSpec, want: tools.Deny, by: tools.DecidedByRule, rule: "rules[0]"},
		{name: "viewer: hard deny is the default's", role: RoleViewer, spec: execSpec, target: ptr(cmdTarget(tools.Deny, "rm -rf /")), want: tools.Deny, by: tools.DecidedByDefault},
		{name: "viewer by default role", cfg: Config{DefaultRole: RoleViewer}, spec: execSpec, target: &restartNginx, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.viewer"},

		// operator: the defaults and the rules.
		{name: "operator asked for ask-tier command", role: RoleOperator, spec: execSpec, target: &restartNginx, want: tools.Ask, by: tools.DecidedByDefault},
		{name: "operator is the default role", spec: execSpec, target: &restartNginx, want: tools.Ask, by: tools.DecidedByDefault},
		{name: "operator allow rule approves", role: RoleOperator, cfg: Config{Rules: []Rule{allowRestart}}, spec: execSpec, target: &restartNginx, want: tools.Allow, approved: true, by: tools.DecidedByRule, rule: "rules[0]"},
		{name: "operator hard deny", role: RoleOperator, spec: execSpec, target: ptr(cmdTarget(tools.Deny, "rm -rf /")), want: tools.Deny, by: tools.DecidedByDefault},

		// admin's own rules apply to admin only.
		{name: "admin role rule allows", role: RoleAdmin, cfg: Config{Roles: map[string]Role{RoleAdmin: {Rules: []Rule{allowRestart}}}}, spec: execSpec, target: &restartNginx, want: tools.Allow, approved: true, by: tools.DecidedByRule, rule: "roles.admin.rules[0]"},
		{name: "admin role rule named by the daemon", role: RoleAdmin, cfg: Config{Roles: map[string]Role{RoleAdmin: {Rules: []Rule{{Name: "roles.admin.rules[3]", Tool: "command_executor", Command: "systemctl", Decision: tools.Allow}}}}}, spec: execSpec, target: &restartNginx, want: tools.Allow, approved: true, by: tools.DecidedByRule, rule: "roles.admin.rules[3]"},
		{name: "admin's rule is not the operator's", role: RoleOperator, cfg: Config{Roles: map[string]Role{RoleAdmin: {Rules: []Rule{allowRestart}}}}, spec: execSpec, target: &restartNginx, want: tools.Ask, by: tools.DecidedByDefault},
		{name: "global deny beats role allow", role: RoleAdmin, cfg: Config{Rules: []Rule{{Tool: "command_executor", Command: "systemctl", Decision: tools.Deny}}, Roles: map[string]Role{RoleAdmin: {Rules: []Rule{allowRestart}}}}, spec: execSpec, target: &restartNginx, want: tools.Deny, by: tools.DecidedByRule, rule: "rules[0]"},
		{name: "role deny beats global allow", role: RoleAdmin, cfg: Config{Rules: []Rule{allowRestart}, Roles: map[string]Role{RoleAdmin: {Rules: []Rule{{Tool: "command_*", Decision: tools.Deny}}}}}, spec: execSpec, target: &restartNginx, want: tools.Deny, by: tools.DecidedByRule, rule: "roles.admin.rules[0]"},

		// a custom role's tool patterns.
		{name: "custom: denied tool", role: "deployer", cfg: Config{Roles: map[string]Role{"deployer": deployer}}, spec: execSpec, target: &dfH, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.deployer"},
		{name: "custom: allowed tool", role: "deployer", cfg: Config{Roles: map[string]Role{"deployer": deployer}}, spec: monSpec, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "custom: allowed tool keeps its default", role: "deployer", cfg: Config{Roles: map[string]Role{"deployer": deployer}}, spec: dlSpec, target: &Target{Paths: []Path{outside("/etc/hostname")}}, want: tools.Ask, by: tools.DecidedByDefault},
		{name: "custom: no pattern matches an MCP tool", role: "deployer", cfg: Config{Roles: map[string]Role{"deployer": deployer}}, spec: mcpFetch, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.deployer"},
		{name: "custom: own rule", role: "deployer", cfg: Config{Roles: map[string]Role{"deployer": {Tools: deployer.Tools, Rules: []Rule{{Tool: "sys_monitor", Decision: tools.Ask}}}}}, spec: monSpec, want: tools.Ask, by: tools.DecidedByRule, rule: "roles.deployer.rules[0]"},
		{name: "custom: role ask makes an allow ask", role: "careful", cfg: Config{Roles: map[string]Role{"careful": {Tools: map[string]tools.Decision{"*": tools.Ask}}}}, spec: monSpec, want: tools.Ask, by: tools.DecidedByRole, rule: "roles.careful"},
		{name: "custom: role ask, approving rule still asks", role: "careful", cfg: Config{Rules: []Rule{allowRestart}, Roles: map[string]Role{"careful": {Tools: map[string]tools.Decision{"*": tools.Ask}}}}, spec: execSpec, target: &restartNginx, want: tools.Ask, by: tools.DecidedByRole, rule: "roles.careful"},
		{name: "custom: role ask keeps the default's ask", role: "careful", cfg: Config{Roles: map[string]Role{"careful": {Tools: map[string]tools.Decision{"*": tools.Ask}}}}, spec: execSpec, target: &restartNginx, want: tools.Ask, by: tools.DecidedByDefault},
		{name: "custom read-only: role ask is deny", role: "auditor", cfg: Config{Roles: map[string]Role{"auditor": {Tools: map[string]tools.Decision{"*": tools.Ask}, ReadOnly: true}}}, spec: monSpec, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.auditor"},
		{name: "custom: no tools at all", role: "chatter", cfg: Config{Roles: map[string]Role{"chatter": {}}}, spec: monSpec, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.chatter"},

		// MCP-style source patterns.
		{name: "mcp exact", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:fetch": tools.Allow, "web:*": tools.Deny}}}}, spec: mcpFetch, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "mcp source wildcard", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:fetch": tools.Allow, "web:*": tools.Deny}}}}, spec: mcpPost, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.web"},
		{name: "mcp bare name without colon", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"fetch": tools.Allow}}}}, spec: mcpFetch, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "mcp full name", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:mcp__web__fetch": tools.Allow}}}}, spec: mcpFetch, want: tools.Allow, by: tools.DecidedByDefault},
		{name: "mcp other source", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:*": tools.Allow}}}}, spec: mcpWrite, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.web"},
		{name: "mcp builtin source is not an MCP source", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:*": tools.Allow}}}}, spec: monSpec, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.web"},
		{name: "mcp colon-named tool", role: "web", cfg: Config{Roles: map[string]Role{"web": {Tools: map[string]tools.Decision{"web:fetch": tools.Allow}}}}, spec: tools.Spec{Name: "web:fetch", Source: "web", Risk: tools.RiskReadOnly}, want: tools.Allow, by: tools.DecidedByDefault},

		// unknown roles fail closed.
		{name: "unknown role", role: "ghost", spec: monSpec, want: tools.Deny, by: tools.DecidedByRole, rule: "roles.ghost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if tc.target != nil {
				cfg.Inspectors = map[string]Inspector{tc.spec.Name: fakeInspector{*tc.target}}
			}
			p, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			v := p.Decide(context.Background(), &tools.Call{Role: tc.role}, tc.spec, json.RawMessage(`{}`))
			if v.Decision != tc.want || v.Approved != tc.approved {
				t.Fatalf("Decide = %s (approved %v, %q), want %s (approved %v)", v.Decision, v.Approved, v.Reason, tc.want, tc.approved)
			}
			if v.By != tc.by || v.Rule != tc.rule {
				t.Fatalf("decided by %q %q, want %q %q (%q)", v.By, v.Rule, tc.by, tc.rule, v.Reason)
			}
			if v.Decision != tools.Allow && (!strings.Contains(v.Reason, "。") || !strings.Contains(v.Reason, ".")) {
				t.Errorf("reason %q is not in Chinese and English", v.Reason)
			}
			if v.Decision == tools.Deny && v.Scope != "" {
				t.Errorf("deny with scope %q", v.Scope)
			}
		})
	}
}

// TestRoleReasons: a refusal by the role says which role and tool.
func TestRoleReasons(t *testing.T) {
	p, err := New(Config{Roles: map[string]Role{"deployer": {Tools: map[string]tools.Decision{"builtin:*": tools.Allow, "builtin:command_executor": tools.Deny}}}})
	if err != nil {
		t.Fatal(err)
	}
	v := p.Decide(context.Background(), &tools.Call{Role: "deployer"}, execSpec, json.RawMessage(`{}`))
	if want := "角色 deployer 不能使用工具 command_executor。Role deployer may not use the tool command_executor."; v.Reason != want {
		t.Errorf("reason %q, want %q", v.Reason, want)
	}
	v = p.Decide(context.Background(), &tools.Call{Role: "ghost"}, monSpec, json.RawMessage(`{}`))
	if !strings.Contains(v.Reason, "Unknown role ghost") {
		t.Errorf("unknown role reason %q", v.Reason)
	}
	v = p.Decide(context.Background(), &tools.Call{Role: RoleViewer}, tools.Spec{Name: "probe", Risk: tools.RiskSensitive}, json.RawMessage(`{}`))
	if !strings.Contains(v.Reason, "Role viewer is read-only") {
		t.Errorf("viewer reason %q", v.Reason)
	}
	// A nil call is the default role's.
	if v := p.Decide(context.Background(), nil, monSpec, json.RawMessage(`{}`)); v.Decision != tools.Allow {
		t.Errorf("nil call: %s", v.Decision)
	}
}

// TestPatternSpecificity: the most specific matching pattern decides,
// in the documented total order, whatever the map's iteration order.
func TestPatternSpecificity(t *testing.T) {
	A, Q, D := tools.Allow, tools.Ask, tools.Deny
	for _, tc := range []struct {
		name  string
		tools map[string]tools.Decision
		spec  tools.Spec
		want  tools.Decision
	}{
		{"exact beats source:*", map[string]tools.Decision{"builtin:sys_monitor": A, "builtin:*": D}, monSpec, A},
		{"source:* beats *:tool", map[string]tools.Decision{"builtin:*": A, "*:sys_monitor": D}, monSpec, A},
		{"*:tool beats *:*", map[string]tools.Decision{"*:sys_monitor": D, "*:*": A}, monSpec, D},
		{"no colon is *:tool", map[string]tools.Decision{"sys_monitor": D, "*:*": A}, monSpec, D},
		{"literal source with wildcard tool beats wildcard source with literal tool", map[string]tools.Decision{"builtin:s*": D, "b*:sys_monitor": A}, monSpec, D},
		{"fewer wildcards", map[string]tools.Decision{"builtin:sys_*": D, "builtin:*_*": A}, monSpec, D},
		{"more literal characters", map[string]tools.Decision{"builtin:sys_*": A, "builtin:s*": D}, monSpec, A},
		{"a class is one wildcard, then literals decide", map[string]tools.Decision{"builtin:sys_[m]onitor": D, "builtin:sys_*": A}, monSpec, D},
		{"tie: strictest", map[string]tools.Decision{"*:sys_monitor": A, "sys_monitor": Q}, monSpec, Q},
		{"mcp: exact beats source wildcard", map[string]tools.Decision{"web:fetch": A, "web:*": D, "*:*": D}, mcpFetch, A},
		{"mcp: source beats bare name", map[string]tools.Decision{"web:*": D, "fetch": A}, mcpFetch, D},
		{"mcp: wildcard source", map[string]tools.Decision{"w?b:*": Q, "*:*": D}, mcpFetch, Q},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Run several times: map iteration order must not matter.
			for range 20 {
				p, err := New(Config{Roles: map[string]Role{"r": {Tools: tc.tools}}})
				if err != nil {
					t.Fatal(err)
				}
				v := p.Decide(context.Background(), &tools.Call{Role: "r"}, tc.spec, json.RawMessage(`{}`))
				got := v.Decision
				if tc.want == A && v.By == tools.DecidedByRole {
					got = Q // the role's ask
				}
				if got != tc.want {
					t.Fatalf("decision %s (%s %s), want %s", v.Decision, v.By, v.Rule, tc.want)
				}
			}
		})
	}
}

// TestComparePatternsTotal: comparePatterns is a strict total order on
// distinct patterns (antisymmetric, never 0 for different texts).
func TestComparePatternsTotal(t *testing.T) {
	var ps []pattern
	for _, text := range []string{"a:b", "a:*", "*:b", "*:*", "a*:b", "a:b*", "?:b", "[ab]:b", "ab:c", "b", "*", "x:[a-z]*"} {
		for _, d := range []tools.Decision{tools.Allow, tools.Ask, tools.Deny} {
			p, err := compilePattern(text, d)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
	}
	for _, a := range ps {
		for _, b := range ps {
			ab, ba := comparePatterns(a, b), comparePatterns(b, a)
			same := a.text == b.text && a.decision == b.decision
			if (ab == 0) != same || ab != -ba {
				t.Fatalf("compare(%s %s, %s %s) = %d, reverse %d", a.text, a.decision, b.text, b.decision, ab, ba)
			}
		}
	}
}

// TestNewRefusesBadRoles: malformed patterns, built-in roles given tools
// or read_only, bad role rules and an unknown default role are errors.
func TestNewRefusesBadRoles(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		is   error
	}{
		{"bad glob", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{"builtin:[": tools.Allow}}}}, ErrBadPattern},
		{"bad source glob", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{"[:x": tools.Allow}}}}, ErrBadPattern},
		{"empty source", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{":x": tools.Allow}}}}, ErrBadPattern},
		{"empty tool", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{"x:": tools.Allow}}}}, ErrBadPattern},
		{"empty pattern", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{"": tools.Allow}}}}, ErrBadPattern},
		{"bad decision", Config{Roles: map[string]Role{"r": {Tools: map[string]tools.Decision{"*": tools.Decision(7)}}}}, ErrBadPattern},
		{"viewer tools", Config{Roles: map[string]Role{RoleViewer: {Tools: map[string]tools.Decision{"*": tools.Allow}}}}, ErrBuiltinRole},
		{"operator read-only", Config{Roles: map[string]Role{RoleOperator: {ReadOnly: true}}}, ErrBuiltinRole},
		{"viewer read-only", Config{Roles: map[string]Role{RoleViewer: {ReadOnly: true}}}, ErrBuiltinRole},
		{"admin tools", Config{Roles: map[string]Role{RoleAdmin: {Tools: map[string]tools.Decision{"builtin:*": tools.Deny}}}}, ErrBuiltinRole},
		{"unknown default role", Config{DefaultRole: "ghost"}, ErrUnknownRole},
		{"bad role rule", Config{Roles: map[string]Role{"r": {Rules: []Rule{{Tool: "[", Decision: tools.Allow}}}}}, nil},
		{"bad built-in role rule", Config{Roles: map[string]Role{RoleAdmin: {Rules: []Rule{{Decision: tools.Allow}}}}}, nil},
		{"empty role name", Config{Roles: map[string]Role{"": {}}}, nil},
	} {
		_, err := New(tc.cfg)
		if err == nil || tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: New = %v, want %v", tc.name, err, tc.is)
		}
	}
	_, err := New(Config{Roles: map[string]Role{RoleAdmin: {Rules: []Rule{{Tool: "x", Decision: tools.Allow}, {Tool: "[", Decision: tools.Allow}}}}})
	if err == nil || !strings.Contains(err.Error(), "roles.admin.rules[1]") {
		t.Errorf("error %v does not name the rule", err)
	}
	_, err = New(Config{Rules: []Rule{{Name: "permissions.rules[0]", Decision: tools.Allow}}})
	if err == nil || !strings.Contains(err.Error(), "permissions.rules[0]") {
		t.Errorf("error %v does not name the rule", err)
	}
	if _, err := New(Config{DefaultRole: "deployer", Roles: map[string]Role{"deployer": {Tools: map[string]tools.Decision{"*": tools.Allow}}}}); err != nil {
		t.Errorf("a configured default role: %v", err)
	}
}

// BenchmarkDecideRole is one decision for a custom role with a few
// patterns and rules: patterns are compiled in New, not per call.
func BenchmarkDecideRole(b *testing.B) {
	p, err := New(Config{
		Rules: []Rule{{Tool: "command_executor", Command: "journalctl", Decision: tools.Allow}},
		Roles: map[string]Role{"deployer": {
			Tools: map[string]tools.Decision{"builtin:*": tools.Allow, "builtin:command_executor": tools.Ask, "web:*": tools.Deny, "*:*": tools.Deny},
			Rules: []Rule{{Tool: "sys_*", Decision: tools.Allow}},
		}},
		Inspectors: map[string]Inspector{"command_executor": fakeInspector{cmdTarget(tools.Ask, "systemctl restart nginx")}},
	})
	if err != nil {
		b.Fatal(err)
	}
	call := &tools.Call{Role: "deployer"}
	args := json.RawMessage(`{"command":"systemctl","args":["restart","nginx"]}`)
	b.ReportAllocs()
	for b.Loop() {
		p.Decide(context.Background(), call, execSpec, args)
	}
}
