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
			[]string{"dpkg.log", "/etc/opsassist/opsassist.yaml", "cat on files in", "/etc/opsassist/", "选“本对话允许”后，本对话中用 cat 读取"}},
		{"ask tier", cmdTarget(tools.Ask, "systemctl restart nginx"), []string{"running the command systemctl restart nginx is not asked again", "运行命令 systemctl restart nginx 不再询问"}},
		{"download", Target{Paths: []Path{outside("/etc/hostname")}}, []string{"/etc/hostname", "downloading files in /etc/ is not asked again", "下载 /etc/ 下的文件不再询问"}},
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

// TestReasonInEachLanguage: every reason the policy gives comes in
// Chinese alone and English alone (ReasonText), so a client shows the
// one of its user's language, and Reason, for the model, the audit log
// and old clients, is both at once.
func TestReasonInEachLanguage(t *testing.T) {
	sens := tools.Spec{Name: "probe", Risk: tools.RiskSensitive}
	for _, tc := range []struct {
		name   string
		cfg    Config
		role   string
		spec   tools.Spec
		target *Target
	}{
		{"outside the roots", Config{}, "", dlSpec, &Target{Paths: []Path{outside("/etc/hostname")}}},
		{"ask tier", Config{}, "", execSpec, ptr(cmdTarget(tools.Ask, "systemctl restart nginx"))},
		{"denied command", Config{}, "", execSpec, ptr(cmdTarget(tools.Deny, "rm -rf /"))},
		{"secret", Config{}, "", execSpec, ptr(cmdTarget(tools.Allow, "cat /etc/shadow", secret("/etc/shadow")))},
		{"risk", Config{}, "", sens, nil},
		{"unknown role", Config{}, "nobody", sens, nil},
		{"read-only role", Config{}, RoleViewer, sens, nil},
		{"deny rule", Config{Rules: []Rule{{Tool: "probe", Decision: tools.Deny}}}, "", sens, nil},
		{"ask rule", Config{Rules: []Rule{{Tool: "probe", Decision: tools.Ask}}}, "", tools.Spec{Name: "probe"}, nil},
	} {
		if tc.target != nil {
			tc.cfg.Inspectors = map[string]Inspector{tc.spec.Name: fakeInspector{*tc.target}}
		}
		p, err := New(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		v := p.Decide(context.Background(), &tools.Call{Role: tc.role}, tc.spec, []byte(`{}`))
		zh, en := v.ReasonText.Zh, v.ReasonText.En
		if zh == "" || en == "" {
			t.Errorf("%s: reason %q has no text in one language: %+v", tc.name, v.Reason, v.ReasonText)
			continue
		}
		if !chinese(zh) {
			t.Errorf("%s: Chinese reason %q", tc.name, zh)
		}
		if chinese(en) {
			t.Errorf("%s: English reason %q holds Chinese", tc.name, en)
		}
		if v.Reason != v.ReasonText.Both() {
			t.Errorf("%s: Reason %q is not both texts %+v", tc.name, v.Reason, v.ReasonText)
		}
	}
}

// chinese reports whether s holds a Han character.
func chinese(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// TestDeniedCommandSaysWhyInChinese: the Chinese reason of a denied
// command carries the inspector's Chinese why, as the English one
// carries its why.
func TestDeniedCommandSaysWhyInChinese(t *testing.T) {
	tg := cmdTarget(tools.Deny, "rm -rf /")
	tg.Why, tg.WhyZh = "rm destroys data", "rm 会破坏数据"
	p, err := New(Config{Inspectors: map[string]Inspector{execSpec.Name: fakeInspector{tg}}})
	if err != nil {
		t.Fatal(err)
	}
	v := p.Decide(context.Background(), &tools.Call{}, execSpec, []byte(`{}`))
	if !strings.Contains(v.ReasonText.Zh, "rm 会破坏数据") || !strings.Contains(v.ReasonText.En, "rm destroys data") {
		t.Errorf("reason %+v, want the why in each language", v.ReasonText)
	}
}
