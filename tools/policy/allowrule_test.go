package policy

import (
	"context"
	"testing"

	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// TestAllowRuleMatchesEveryResolvedPath: an allow rule with a path
// applies only when every file of the call lies under it once resolved;
// deny and ask rules apply when any file matches, as written or
// resolved.
func TestAllowRuleMatchesEveryResolvedPath(t *testing.T) {
	allowLogs := Rule{Tool: "command_executor", Command: "cat", Path: "/var/log/**", Decision: tools.Allow}
	denyLogs := Rule{Tool: "command_executor", Command: "cat", Path: "/var/log/**", Decision: tools.Deny}
	link := Path{Arg: "/var/log/lnk/secret.txt", Resolved: "/srv/private/secret.txt", Class: pathguard.Outside}
	unusable := Path{Arg: "/var/log/gone", Class: pathguard.Outside}
	for _, tc := range []struct {
		name string
		rule Rule
		t    Target
		want tools.Decision
	}{
		{"allow, all inside", allowLogs, cmdTarget(tools.Allow, "cat /var/log/a /var/log/b", outside("/var/log/a"), outside("/var/log/b")), tools.Allow},
		{"allow, one outside", allowLogs, cmdTarget(tools.Allow, "cat /var/log/a /etc/x", outside("/var/log/a"), outside("/etc/x")), tools.Ask},
		{"allow, link out", allowLogs, cmdTarget(tools.Allow, "cat /var/log/lnk/secret.txt", link), tools.Ask},
		{"allow, unresolved", allowLogs, cmdTarget(tools.Allow, "cat /var/log/gone", unusable), tools.Ask},
		{"deny, one of two", denyLogs, cmdTarget(tools.Allow, "cat /var/log/a /etc/x", outside("/var/log/a"), outside("/etc/x")), tools.Deny},
		{"deny, as written", denyLogs, cmdTarget(tools.Allow, "cat /var/log/lnk/secret.txt", link), tools.Deny},
	} {
		p, err := New(Config{Rules: []Rule{tc.rule}, Inspectors: map[string]Inspector{"command_executor": fakeInspector{tc.t}}})
		if err != nil {
			t.Fatal(err)
		}
		v := p.Decide(context.Background(), &tools.Call{}, execSpec, []byte(`{}`))
		if v.Decision != tc.want {
			t.Errorf("%s: decision %v (%s), want %v", tc.name, v.Decision, v.Reason, tc.want)
		}
		if v.Decision == tools.Allow && !v.Approved {
			t.Errorf("%s: allowed without Approved", tc.name)
		}
	}
}
