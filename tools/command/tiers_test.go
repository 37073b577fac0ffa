package command

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"opsassist/tools/pathguard"
)

// TestTiersDefaults: the zero Tiers and NewTiers(nil) are the default
// whitelist; an empty list whitelists nothing.
func TestTiersDefaults(t *testing.T) {
	want := []string{"ls", "cat", "grep", "head", "tail", "ps", "pwd", "whoami", "df", "free"}
	nilList, err := NewTiers(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []Tiers{{}, nilList} {
		if got := tr.Names(); !slices.Equal(got, want) {
			t.Errorf("Names() = %v", got)
		}
		if got := tr.String(); got != "ls cat grep head tail ps pwd whoami df free" {
			t.Errorf("String() = %q", got)
		}
		if !tr.Allowed("free") || tr.Allowed("uptime") || tr.Allowed("LS") || tr.Allowed("/bin/ls") {
			t.Error("Allowed")
		}
	}
	none, err := NewTiers([]string{})
	if err != nil {
		t.Fatal(err)
	}
	if none.Allowed("ls") || len(none.Names()) != 0 || none.String() != "" {
		t.Errorf("empty whitelist: %v", none.Names())
	}
}

// TestTiersConfigured: a configured list is kept in its order, copied
// in and out.
func TestTiersConfigured(t *testing.T) {
	list := []string{"uptime", "ls"}
	tr, err := NewTiers(list)
	if err != nil {
		t.Fatal(err)
	}
	list[0] = "rm"
	names := tr.Names()
	names[1] = "sh"
	if tr.String() != "uptime ls" || !tr.Allowed("uptime") || tr.Allowed("rm") || tr.Allowed("sh") || tr.Allowed("cat") {
		t.Errorf("tiers %v", tr.Names())
	}
	if got := tr.DefaultArgs("ls"); !slices.Equal(got, []string{"-la"}) {
		t.Errorf("DefaultArgs(ls) = %v", got)
	}
	if got := tr.DefaultArgs("uptime"); got != nil {
		t.Errorf("DefaultArgs(uptime) = %v", got)
	}
}

// TestConfiguredCommandRuns: the tool describes and runs a command added
// to the whitelist and refuses one that is not.
func TestConfiguredCommandRuns(t *testing.T) {
	f := newFixture(t)
	cmds, err := NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := pathguard.New(pathguard.Config{Roots: []string{f.root}})
	if err != nil {
		t.Fatal(err)
	}
	if f.e, err = New(Config{Workspace: f.ws, Paths: v, Commands: cmds}); err != nil {
		t.Fatal(err)
	}
	if d := f.e.Spec().Description; !strings.Contains(d, "commands): ls, uptime\n需用户确认后执行") || !strings.Contains(d, "docker restart\n适用场景：列出文件 (ls)。\n关键词") ||
		strings.Contains(d, "netstat, uptime") {
		t.Errorf("description %q", d)
	}
	out, err := f.run(t, t.Context(), "uptime", nil, 0)
	if err != nil || out.ExitCode != 0 || out.Stdout == "" {
		t.Fatalf("uptime: %+v, %v", out, err)
	}
	if _, err := f.run(t, t.Context(), "cat", []string{"config.yaml"}, 0); !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("cat: %v, want ErrNotAllowed", err)
	}
}

// TestDocsListTheTiers: the configuration reference states the default
// whitelist, and every command the security notes say cannot be
// whitelisted is on the deny list.
func TestDocsListTheTiers(t *testing.T) {
	conf, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), "| `commands` | — | — | `"+defaultWhitelist+"` |") {
		t.Errorf("docs/configuration.md does not state the default whitelist %q", defaultWhitelist)
	}
	sec, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(sec), "**Commands.**")
	denied, _, ok := strings.Cut(rest, "cannot be put in the")
	if !ok {
		t.Fatal("docs/security.md: deny list not found")
	}
	n := 0
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(denied, -1) {
		n++
		if _, ok := neverAllowed(m[1]); !ok {
			t.Errorf("docs/security.md says %s cannot be whitelisted; NewTiers allows it", m[1])
		}
	}
	if n < 20 {
		t.Errorf("only %d denied commands found in docs/security.md", n)
	}
}

// TestWhyDeniedZh: every denial Classify gives has its Chinese reason,
// naming the command, with no English left in it.
func TestWhyDeniedZh(t *testing.T) {
	var tiers Tiers // the defaults
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"rm", []string{"-rf", "/"}, "rm 会破坏数据"},
		{"mkfs.ext4", nil, "mkfs.ext4 会格式化文件系统"},
		{"find", []string{"/"}, "find 会运行其他命令（-exec）并删除文件（-delete）"},
		{"systemctl", []string{"restart", "reboot.target"}, "systemctl restart reboot.target 会改变机器的运行状态"},
		{"foo", []string{"-x", "bar"}, "foo bar 不在白名单（"},
		{"ls", nil, ""},
		{"du", []string{"-sh", "/tmp"}, ""},
	} {
		got := tiers.whyDeniedZh(c.name, c.args)
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %q: %q, want it to start %q", c.name, c.args, got, c.want)
		}
	}
	for _, name := range strings.Fields("mkfs rm shutdown useradd apt chmod watch top less sh env find") {
		why, ok := neverAllowed(name)
		if !ok || neverAllowedZh[why] == "" {
			t.Errorf("%s: reason %q has no Chinese", name, why)
		}
	}
}
