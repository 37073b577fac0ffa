package command

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// runCall calls the tool as the Registry would, approved or not.
func (f *fixture) runCall(t *testing.T, approved bool, cmd string, args ...string) (Output, error) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"command": cmd, "args": args})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.e.Run(t.Context(), &tools.Call{Approved: approved}, raw)
	if v == nil {
		return Output{}, err
	}
	return v.(Output), err
}

// outsideFiles makes, next to the fixture's root, a readable file and a
// secret, and inside the workspace a link to each.
func outsideFiles(t *testing.T, f *fixture) (plain, key, linkPlain, linkKey string) {
	t.Helper()
	other := filepath.Join(filepath.Dir(f.root), "other")
	if err := os.MkdirAll(filepath.Join(other, ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain, key = filepath.Join(other, "hostname"), filepath.Join(other, ".ssh", "id_ed25519")
	write(t, plain, "web-01\n")
	write(t, key, "PRIVATE\n")
	linkPlain, linkKey = filepath.Join(f.ws, "host"), filepath.Join(f.ws, "key")
	for l, target := range map[string]string{linkPlain: plain, linkKey: key} {
		if err := os.Symlink(target, l); err != nil {
			t.Fatal(err)
		}
	}
	return plain, key, linkPlain, linkKey
}

// TestApprovedReadsOutsideRoots: cat of a file outside the roots is
// refused unless approved; approved, it reads it (directly or through a
// link in the workspace); a secret stays refused, approved or not, and
// also through a link inside the roots.
func TestApprovedReadsOutsideRoots(t *testing.T) {
	f := newFixture(t)
	plain, key, linkPlain, linkKey := outsideFiles(t, f)
	if _, err := f.runCall(t, false, "cat", plain); !errors.Is(err, pathguard.ErrOutsideRoots) {
		t.Fatalf("unapproved: %v, want ErrOutsideRoots", err)
	}
	for _, p := range []string{plain, linkPlain, "host"} {
		out, err := f.runCall(t, true, "cat", p)
		if err != nil || out.Stdout != "web-01\n" {
			t.Fatalf("approved cat %s: %+v, %v", p, out, err)
		}
	}
	for _, approved := range []bool{false, true} {
		for _, p := range []string{key, linkKey, "key", filepath.Join(f.ws, ".env"), "/etc/shadow", "/proc/self/environ"} {
			_, err := f.runCall(t, approved, "cat", p)
			if !errors.Is(err, pathguard.ErrForbidden) && !(!approved && errors.Is(err, pathguard.ErrOutsideRoots)) {
				t.Fatalf("approved=%v cat %s: %v, want ErrForbidden", approved, p, err)
			}
		}
	}
}

// TestAskTierNeedsApproval: du (the ask tier) runs only when approved,
// with its table's options only; a deny-list command is refused even
// when approved.
func TestAskTierNeedsApproval(t *testing.T) {
	f := newFixture(t)
	if _, err := f.runCall(t, false, "du", "-s", f.data); !errors.Is(err, ErrNeedsApproval) {
		t.Fatalf("unapproved du: %v, want ErrNeedsApproval", err)
	}
	out, err := f.runCall(t, true, "du", "-s", f.data)
	if err != nil || !strings.Contains(out.Stdout, f.data) {
		t.Fatalf("approved du: %+v, %v", out, err)
	}
	for _, args := range [][]string{{"-L", f.data}, {"--files0-from=/etc/hostname"}, {"-X", "/etc/hostname", f.data}} {
		if _, err := f.runCall(t, true, "du", args...); !errors.Is(err, ErrOptionDenied) {
			t.Fatalf("du %q: %v, want ErrOptionDenied", args, err)
		}
	}
	if _, err := f.runCall(t, true, "du", "-s", filepath.Join(f.ws, ".env")); !errors.Is(err, pathguard.ErrForbidden) {
		t.Fatalf("du of a secret: %v, want ErrForbidden", err)
	}
	for _, cmd := range [][]string{{"rm", "-rf", "/"}, {"mkfs.ext4", "/dev/sda"}, {"reboot"}, {"systemctl", "poweroff"}, {"useradd", "x"}, {"apt-get", "install", "x"}} {
		if _, err := f.runCall(t, true, cmd[0], cmd[1:]...); !errors.Is(err, ErrNotAllowed) {
			t.Fatalf("approved %q: %v, want ErrNotAllowed", cmd, err)
		}
	}
}

// TestAskSpecs: each ask-tier table accepts the useful forms and refuses
// options that follow forever, write, read other files or act on
// another host.
func TestAskSpecs(t *testing.T) {
	ok := [][]string{
		{"systemctl", "status", "nginx"}, {"systemctl", "status", "nginx.service", "-n", "20"}, {"systemctl", "restart", "nginx"},
		{"systemctl", "reload", "getty@tty1.service"}, {"journalctl", "-u", "nginx", "-n50"}, {"journalctl", "--since", "1 hour ago", "-p", "err"},
		{"ss", "-tlnp"}, {"netstat", "-tulnp"}, {"uptime"}, {"uptime", "-p"}, {"docker", "ps", "-a"},
		{"docker", "logs", "--tail", "100", "web"}, {"docker", "restart", "web"}, {"du", "-sh", "/var/log"},
	}
	bad := [][]string{
		{"systemctl", "restart"}, {"systemctl", "restart", "--now", "nginx"}, {"systemctl", "status", "-H", "host", "nginx"},
		{"systemctl", "restart", "/etc/x"}, {"systemctl", "status", "--root=/", "x"}, {"journalctl", "-f"}, {"journalctl", "--follow"},
		{"journalctl", "--file", "/etc/shadow"}, {"journalctl", "-D", "/x"}, {"journalctl", "--vacuum-size=1"}, {"journalctl", "--rotate"},
		{"journalctl", "nginx"}, {"ss", "-K"}, {"ss", "-F", "/etc/hostname"}, {"ss", "-D", "/tmp/x"}, {"ss", "-E"}, {"netstat", "-c"},
		{"uptime", "x"}, {"docker", "logs", "-f", "web"}, {"docker", "logs"}, {"docker", "ps", "web"}, {"du", "--files0-from=x"},
	}
	tiers, err := Tiers{}.WithAsk(append(DefaultAsk(), "uptime"))
	if err != nil {
		t.Fatal(err)
	}
	for _, argv := range append(ok, bad...) {
		tier, entry, why := tiers.Classify(argv[0], argv[1:])
		if tier != TierAsk {
			t.Fatalf("%q: tier %d (%s), want the ask tier", argv, tier, why)
		}
		_, _, err := askSpecs[entry].parse(entry, argv[1:])
		if good := len(ok) > 0 && containsArgv(ok, argv); good != (err == nil) {
			t.Errorf("%q: %v", argv, err)
		}
	}
}

func containsArgv(list [][]string, argv []string) bool {
	for _, a := range list {
		if strings.Join(a, "\x00") == strings.Join(argv, "\x00") {
			return true
		}
	}
	return false
}

// TestTiersWithAsk: the ask tier is configurable among the known
// tables, never with a deny-list command; the whitelist wins over it.
func TestTiersWithAsk(t *testing.T) {
	tiers, err := Tiers{}.WithAsk([]string{"systemctl status"})
	if err != nil {
		t.Fatal(err)
	}
	if tier, _, _ := tiers.Classify("systemctl", []string{"restart", "nginx"}); tier != TierDeny {
		t.Errorf("restart outside the configured ask tier: %d", tier)
	}
	if tier, e, _ := tiers.Classify("systemctl", []string{"status", "nginx"}); tier != TierAsk || e != "systemctl status" {
		t.Errorf("status: %d %q", tier, e)
	}
	for _, bad := range []string{"rm", "bash", "systemctl poweroff", "curl"} {
		if _, err := (Tiers{}).WithAsk([]string{bad}); err == nil {
			t.Errorf("WithAsk accepted %q", bad)
		}
	}
	w, err := NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	if tier, _, _ := w.Classify("uptime", nil); tier != TierAllow {
		t.Errorf("whitelisted uptime: %d", tier)
	}
	if _, err := NewTiers([]string{"rm"}); err == nil {
		t.Error("NewTiers whitelisted rm")
	}
}
