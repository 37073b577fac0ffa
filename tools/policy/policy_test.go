package policy

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// fakeInspector returns a fixed target.
type fakeInspector struct{ t Target }

func (f fakeInspector) Inspect(json.RawMessage) (Target, error) { return f.t, nil }

func cmdTarget(tier tools.Decision, line string, paths ...Path) Target {
	w := strings.Fields(line)
	t := Target{Command: w[0], Args: w[1:], Tier: tier, Paths: paths}
	if tier == tools.Ask {
		t.Scope = line
	}
	if tier == tools.Deny {
		t.Why = w[0] + " destroys data"
	}
	return t
}

func outside(p string) Path { return Path{Arg: p, Resolved: p, Class: pathguard.Outside} }
func inside(p string) Path  { return Path{Arg: p, Resolved: p, Class: pathguard.Inside} }
func secret(p string) Path  { return Path{Arg: p, Resolved: p, Class: pathguard.Secret} }

var (
	execSpec = tools.Spec{Name: "command_executor", Risk: tools.RiskSensitive}
	dlSpec   = tools.Spec{Name: "file_download", Risk: tools.RiskSensitive}
)

// TestDecide: defaults from the tool's inspection and risk level, rules
// by tool wildcard, command prefix and path glob, deny > ask > allow,
// and hard denials no rule lifts.
func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rules    []Rule
		spec     tools.Spec
		target   *Target // nil: the tool is not inspected
		want     tools.Decision
		approved bool
		scope    string
	}{
		{name: "whitelist inside roots", spec: execSpec, target: ptr(cmdTarget(tools.Allow, "cat notes.txt", inside("/w/notes.txt"))), want: tools.Allow},
		{name: "whitelist outside roots asks", spec: execSpec, target: ptr(cmdTarget(tools.Allow, "cat /etc/hostname", outside("/etc/hostname"))), want: tools.Ask, scope: "command_executor:cat /etc/"},
		{name: "secret path denied", spec: execSpec, target: ptr(cmdTarget(tools.Allow, "cat /etc/shadow", secret("/etc/shadow"))), want: tools.Deny},
		{name: "secret beats allow rule", spec: execSpec, rules: []Rule{{Tool: "*", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Allow, "cat /etc/shadow", secret("/etc/shadow"))), want: tools.Deny},
		{name: "ask tier", spec: execSpec, target: ptr(cmdTarget(tools.Ask, "systemctl restart nginx")), want: tools.Ask, scope: "command_executor:systemctl restart nginx"},
		{name: "deny list", spec: execSpec, target: ptr(cmdTarget(tools.Deny, "rm -rf /")), want: tools.Deny},
		{name: "deny list beats allow rule", spec: execSpec, rules: []Rule{{Tool: "command_executor", Command: "rm", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Deny, "rm -rf /")), want: tools.Deny},
		{name: "allow rule by command prefix approves", spec: execSpec, rules: []Rule{{Tool: "command_executor", Command: "systemctl status", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Ask, "systemctl status nginx")), want: tools.Allow, approved: true},
		{name: "command prefix must match", spec: execSpec, rules: []Rule{{Tool: "command_executor", Command: "systemctl status", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Ask, "systemctl restart nginx")), want: tools.Ask, scope: "command_executor:systemctl restart nginx"},
		{name: "args prefix", spec: execSpec, rules: []Rule{{Tool: "command_executor", Command: "journalctl", ArgsPrefix: "-u nginx", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Ask, "journalctl -u nginx -n 50")), want: tools.Allow, approved: true},
		{name: "args prefix mismatch", spec: execSpec, rules: []Rule{{Tool: "command_executor", Command: "journalctl", ArgsPrefix: "-u nginx", Decision: tools.Allow}}, target: ptr(cmdTarget(tools.Ask, "journalctl -u sshd")), want: tools.Ask, scope: "command_executor:journalctl -u sshd"},
		{name: "deny beats ask beats allow", spec: execSpec, rules: []Rule{
			{Tool: "*", Decision: tools.Allow}, {Tool: "command_*", Decision: tools.Ask}, {Tool: "command_executor", Command: "cat", Decision: tools.Deny},
		}, target: ptr(cmdTarget(tools.Allow, "cat notes.txt", inside("/w/notes.txt"))), want: tools.Deny},
		{name: "ask rule tightens", spec: execSpec, rules: []Rule{{Tool: "*", Decision: tools.Allow}, {Tool: "command_*", Decision: tools.Ask}},
			target: ptr(cmdTarget(tools.Allow, "ls", inside("/w"))), want: tools.Ask},
		{name: "path glob subtree allows outside", spec: dlSpec, rules: []Rule{{Tool: "file_download", Path: "/var/log/**", Decision: tools.Allow}},
			target: &Target{Paths: []Path{outside("/var/log/nginx/access.log")}}, want: tools.Allow, approved: true},
		{name: "path glob star", spec: dlSpec, rules: []Rule{{Tool: "file_download", Path: "/etc/*.conf", Decision: tools.Deny}},
			target: &Target{Paths: []Path{inside("/etc/nginx.conf")}}, want: tools.Deny},
		{name: "path glob star does not cross slash", spec: dlSpec, rules: []Rule{{Tool: "file_download", Path: "/etc/*.conf", Decision: tools.Deny}},
			target: &Target{Paths: []Path{inside("/etc/nginx/nginx.conf")}}, want: tools.Allow},
		{name: "download outside asks", spec: dlSpec, target: &Target{Paths: []Path{outside("/etc/hostname")}}, want: tools.Ask, scope: "file_download:/etc/"},
		{name: "file in / is its own scope", spec: dlSpec, target: &Target{Paths: []Path{outside("/vmlinuz")}}, want: tools.Ask, scope: "file_download:/vmlinuz"},
		{name: "read-only tool", spec: tools.Spec{Name: "sys_monitor", Risk: tools.RiskReadOnly}, want: tools.Allow},
		{name: "sensitive tool asks", spec: tools.Spec{Name: "web:fetch", Risk: tools.RiskSensitive}, want: tools.Ask},
		{name: "dangerous tool asks", spec: tools.Spec{Name: "fs:write", Risk: tools.RiskDangerous}, want: tools.Ask},
		{name: "mcp wildcard allow", spec: tools.Spec{Name: "web:fetch", Risk: tools.RiskSensitive}, rules: []Rule{{Tool: "web:*", Decision: tools.Allow}}, want: tools.Allow},
		{name: "mcp wildcard other server", spec: tools.Spec{Name: "fs:write", Risk: tools.RiskDangerous}, rules: []Rule{{Tool: "web:*", Decision: tools.Allow}}, want: tools.Ask},
		{name: "command rule never matches a tool without commands", spec: tools.Spec{Name: "sys_monitor", Risk: tools.RiskReadOnly}, rules: []Rule{{Tool: "*", Command: "ls", Decision: tools.Deny}}, want: tools.Allow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Rules: tc.rules}
			if tc.target != nil {
				cfg.Inspectors = map[string]Inspector{tc.spec.Name: fakeInspector{*tc.target}}
			}
			p, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			v := p.Decide(context.Background(), &tools.Call{}, tc.spec, json.RawMessage(`{}`))
			if v.Decision != tc.want || v.Approved != tc.approved {
				t.Fatalf("Decide = %s (approved %v, %q), want %s (approved %v)", v.Decision, v.Approved, v.Reason, tc.want, tc.approved)
			}
			if v.Decision != tools.Allow && (!strings.Contains(v.Reason, "。") || !strings.Contains(v.Reason, ".")) {
				t.Errorf("reason %q is not in Chinese and English", v.Reason)
			}
			if v.By == "" || (v.By == tools.DecidedByRule) != strings.HasPrefix(v.Rule, "rules[") || v.By == tools.DecidedByRole {
				t.Errorf("decided by %q %q", v.By, v.Rule)
			}
			if v.Decision == tools.Ask && v.Scope != tc.scope {
				t.Errorf("scope %q, want %q", v.Scope, tc.scope)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestScopeNeverBroader: whatever the call, an allow_session scope names
// the tool and something more specific than the tool, never the whole
// tool, "*" or the whole file system.
func TestScopeNeverBroader(t *testing.T) {
	for _, tg := range []Target{
		cmdTarget(tools.Ask, "uptime"),
		cmdTarget(tools.Ask, "systemctl restart nginx"),
		cmdTarget(tools.Allow, "cat /etc/hostname", outside("/etc/hostname")),
		cmdTarget(tools.Allow, "ls /", outside("/")),
		{Paths: []Path{outside("/x")}},
		{Paths: []Path{outside("/")}},
	} {
		s, _ := scope("command_executor", tg)
		if s == "" {
			continue // the exact arguments
		}
		rest, ok := strings.CutPrefix(s, "command_executor:")
		if !ok || rest == "" || rest == "/" || rest == "*" || strings.Contains(rest, "*") {
			t.Errorf("scope(%+v) = %q", tg, s)
		}
		if tg.Command != "" && !strings.HasPrefix(rest, tg.Command) {
			t.Errorf("scope %q does not name the command %s", s, tg.Command)
		}
	}
}

// TestNewRefusesBadRules: a rule without a tool, with a bad glob or no
// decision is a configuration error.
func TestNewRefusesBadRules(t *testing.T) {
	for _, r := range []Rule{
		{Decision: tools.Allow},
		{Tool: "[", Decision: tools.Allow},
		{Tool: "x", Path: "[", Decision: tools.Allow},
		{Tool: "x", Decision: tools.Decision(9)},
	} {
		if _, err := New(Config{Rules: []Rule{r}}); err == nil {
			t.Errorf("New accepted %+v", r)
		}
	}
	if _, err := ParseDecision("maybe"); err == nil {
		t.Error("ParseDecision accepted maybe")
	}
}

// TestReasonsShort: a reason quotes a hostile 60 KB argument cut short,
// and never a secret in the command line. (1300 bytes: the reason for a
// path outside the roots also says, in both languages, which keys
// widen them and what "allow for this conversation" stops asking.)
func TestReasonsShort(t *testing.T) {
	long := "/" + strings.Repeat("长", 20000)
	p, _ := New(Config{Inspectors: map[string]Inspector{
		"command_executor": fakeInspector{Target{Command: "cat", Args: []string{long}, Paths: []Path{outside(long)}}},
		"other":            fakeInspector{cmdTarget(tools.Ask, "journalctl --grep password=hunter2")},
	}})
	v := p.Decide(context.Background(), &tools.Call{}, execSpec, json.RawMessage(`{}`))
	if v.Decision != tools.Ask || len(v.Reason) > 1300 || !strings.Contains(v.Reason, "…") {
		t.Fatalf("%s, %d-byte reason %s", v.Decision, len(v.Reason), v.Reason)
	}
	v = p.Decide(context.Background(), &tools.Call{}, tools.Spec{Name: "other"}, json.RawMessage(`{}`))
	if strings.Contains(v.Reason, "hunter2") {
		t.Fatalf("reason %q shows the secret", v.Reason)
	}
}

// TestScopeKeyIsTheUnredactedScope: two ask-tier command lines that
// differ only in a secret show the same redacted scope, but their grant
// keys differ; the key holds no secret.
func TestScopeKeyIsTheUnredactedScope(t *testing.T) {
	s1, k1 := scope("command_executor", cmdTarget(tools.Ask, "mysql -pSecret1x prod"))
	s2, k2 := scope("command_executor", cmdTarget(tools.Ask, "mysql -pOtherPw2 prod"))
	if s1 != s2 || strings.Contains(s1, "Secret1x") {
		t.Fatalf("shown scopes %q %q", s1, s2)
	}
	if k1 == "" || k1 == k2 || strings.Contains(k1, "Secret1x") {
		t.Fatalf("keys %q %q", k1, k2)
	}
	if s, k := scope("command_executor", cmdTarget(tools.Allow, "uptime")); s != "" || k != "" {
		t.Fatalf("no scope: %q %q", s, k)
	}
}

// TestHardDenyCodes: a hard denial names its failure code, so the user
// is told which file or command and why, not "a forbidden command, or a
// file that may hold secrets".
func TestHardDenyCodes(t *testing.T) {
	for target, want := range map[*Target]string{
		ptr(cmdTarget(tools.Allow, "grep -r x /proc", secret("/proc"))): tools.CodeSecretFile,
		{Paths: []Path{secret("/etc/passwd")}}:                          tools.CodeSecretFile,
		ptr(cmdTarget(tools.Deny, "rm -rf /")):                          tools.CodeCommandNotAllowed,
		ptr(cmdTarget(tools.Allow, "cat notes.txt", inside("/w/n"))):    "",
	} {
		p, err := New(Config{Inspectors: map[string]Inspector{execSpec.Name: fakeInspector{*target}}})
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(context.Background(), &tools.Call{}, execSpec, json.RawMessage(`{}`)); v.Code != want {
			t.Errorf("%+v: code %q, want %q (%s)", *target, v.Code, want, v.Reason)
		}
	}
}

// TestDirectoryScopeIsTheDirectory: a grant for listing a directory
// outside the roots covers that directory, not its parent's every file
// ("ls .." from /w/sub covered all of /w's siblings).
func TestDirectoryScopeIsTheDirectory(t *testing.T) {
	parent := t.TempDir()
	dir := parent + "/logs"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, scope string
	}{
		{dir, "command_executor:ls " + dir + "/"},
		{dir + "/app.log", "command_executor:ls " + dir + "/"},
	} {
		tg := cmdTarget(tools.Allow, "ls "+tc.path, outside(tc.path))
		p, err := New(Config{Inspectors: map[string]Inspector{execSpec.Name: fakeInspector{tg}}})
		if err != nil {
			t.Fatal(err)
		}
		v := p.Decide(context.Background(), &tools.Call{}, execSpec, json.RawMessage(`{}`))
		if v.Decision != tools.Ask || v.Scope != tc.scope {
			t.Errorf("%s: %s, scope %q, want ask with %q", tc.path, v.Decision, v.Scope, tc.scope)
		}
	}
}
