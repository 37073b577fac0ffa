package policy

import (
	"context"
	"strings"
	"testing"

	"opsassist/tools"
)

// TestReasonNamesEveryOutsidePathAndWhatAGrantCovers: the reason the
// user reads names each path outside the roots, each cut on its own so
// a long first path does not hide the second, and says what "allow for
// this session" would cover.
func TestReasonNamesEveryOutsidePathAndWhatAGrantCovers(t *testing.T) {
	long := "/var/log/" + strings.Repeat("a/", 150) + "dpkg.log"
	for _, tc := range []struct {
		name   string
		target Target
		want   []string
	}{
		{"two paths", cmdTarget(tools.Allow, "cat "+long+" /etc/opsassist/opsassist.yaml", outside(long), outside("/etc/opsassist/opsassist.yaml")),
			[]string{"dpkg.log", "/etc/opsassist/opsassist.yaml", "covers cat of files in", "/etc/opsassist/", "本会话允许将覆盖"}},
		{"ask tier", cmdTarget(tools.Ask, "systemctl restart nginx"), []string{"covers the command systemctl restart nginx"}},
		{"download", Target{Paths: []Path{outside("/etc/hostname")}}, []string{"/etc/hostname", "covers file_download of files in /etc/"}},
		// How to widen the roots, in both languages: the configuration keys.
		{"widen", Target{Paths: []Path{outside("/etc/hostname")}}, []string{"加入该目录", "allowed_roots", "permissions.rules", "add its directory to allowed_roots"}},
	} {
		spec := execSpec
		if tc.target.Command == "" {
			spec = dlSpec
		}
		p, err := New(Config{Inspectors: map[string]Inspector{spec.Name: fakeInspector{tc.target}}})
		if err != nil {
			t.Fatal(err)
		}
		v := p.Decide(context.Background(), &tools.Call{}, spec, []byte(`{}`))
		if v.Decision != tools.Ask {
			t.Fatalf("%s: decision %v", tc.name, v.Decision)
		}
		for _, w := range tc.want {
			if !strings.Contains(v.Reason, w) {
				t.Errorf("%s: reason %q lacks %q", tc.name, v.Reason, w)
			}
		}
	}
}

// TestScopeStoresNoSecret: an ask-tier command line holding a password
// is redacted in the scope the session keeps as its grant, and in the
// reason.
func TestScopeStoresNoSecret(t *testing.T) {
	tg := cmdTarget(tools.Ask, "journalctl --grep=password=hunter2hunter2")
	p, err := New(Config{Inspectors: map[string]Inspector{"command_executor": fakeInspector{tg}}})
	if err != nil {
		t.Fatal(err)
	}
	v := p.Decide(context.Background(), &tools.Call{}, execSpec, []byte(`{}`))
	if v.Scope == "" || strings.Contains(v.Scope, "hunter2") || strings.Contains(v.Reason, "hunter2") {
		t.Errorf("scope %q, reason %q: the password is kept", v.Scope, v.Reason)
	}
}
