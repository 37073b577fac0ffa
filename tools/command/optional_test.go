package command

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"opsassist/tools"
)

// realOptional are the options whose value is optional in the real
// programs (getopt "x::", or "--opt[=VALUE]"): the program never takes
// the next argument as their value, so neither may the tables, or the
// next argument, an option the table refuses, runs as the program's own.
var realOptional = map[string][]string{
	"journalctl": {"n", "b", "lines", "boot"},
	"grep":       {"color", "colour"},
	"ls":         {"color", "hyperlink", "time"}, // --time=WORD is required, listed for safety below only if absent
	"df":         {"output"},
}

// TestOptionalValuesNeverConsumeAnOption checks every ask-tier and
// whitelist table: an option whose value the real program treats as
// optional never takes the next argument, so "-n --disk-usage" leaves
// "--disk-usage" to be checked (and refused) as an option.
func TestOptionalValuesNeverConsumeAnOption(t *testing.T) {
	const bad = "--definitely-refused=/etc/shadow"
	for entry, s := range askSpecs {
		var pre []string
		if s.sub != "" {
			pre = []string{s.sub}
		}
		unit := []string{}
		for range s.min {
			unit = append(unit, "x")
		}
		name, _, _ := strings.Cut(entry, " ")
		for _, o := range realOptional[name] {
			if len(o) == 1 && strings.Contains(s.shortValue, o) || len(o) > 1 && slices.Contains(s.longValue, o) {
				t.Errorf("%s: optional-valued option %q is listed as taking the next argument", entry, o)
			}
		}
		var opts []string
		for _, c := range s.shortOptional {
			opts = append(opts, "-"+string(c))
		}
		for _, l := range s.longOptional {
			opts = append(opts, "--"+l)
		}
		for _, o := range opts {
			args := slices.Concat(pre, []string{o, bad}, unit)
			if _, _, err := s.parse(entry, args); !errors.Is(err, ErrOptionDenied) {
				t.Errorf("%s %v: err = %v, want the next argument refused as an option", entry, args, err)
			}
		}
	}
	for _, name := range strings.Fields(defaultWhitelist) {
		s := optSpecFor(name)
		for _, o := range realOptional[name] {
			if o == "time" {
				continue
			}
			if len(o) == 1 && strings.Contains(s.shortValue, o) || len(o) > 1 && slices.Contains(s.longValue, o) {
				t.Errorf("%s: optional-valued option %q is listed as taking the next argument", name, o)
			}
		}
	}
}

func TestJournalctlOptionalValuesAttachedOnly(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{
		{"-n", "--disk-usage"},
		{"--lines", "--disk-usage"},
		{"--boot", "--disk-usage"},
		{"-b", "--disk-usage"},
		{"-rn", "--disk-usage"},
		{"-n", "--file=/etc/shadow"},
		{"--lines", "--file=/etc/shadow"},
		{"-n", "--cursor-file=/etc/passwd"},
	} {
		if _, _, _, err := f.e.parse("journalctl", args, true); !errors.Is(err, ErrOptionDenied) {
			t.Errorf("journalctl %v: err = %v, want ErrOptionDenied", args, err)
		}
	}
	for _, args := range [][]string{
		{"-n50"}, {"-n"}, {"--lines=50"}, {"--lines"}, {"-b-1"}, {"-b"}, {"--boot=-1"}, {"-rn20"}, {"-u", "nginx", "-n", "-r"},
	} {
		if _, _, _, err := f.e.parse("journalctl", args, true); err != nil {
			t.Errorf("journalctl %v: %v", args, err)
		}
	}
}

func TestJournalctlWritingAndForeignJournalOptionsRefused(t *testing.T) {
	f := newFixture(t)
	for _, a := range []string{"--vacuum-size=1M", "--vacuum-time=1s", "--vacuum-files=1", "--rotate", "--flush", "--sync",
		"--cursor-file=/tmp/x", "--update-catalog", "--setup-keys", "-D", "--directory=/", "--root=/", "-M", "--machine=x",
		"-f", "--follow", "--file=/etc/shadow", "-rf", "-nf"} {
		if _, _, _, err := f.e.parse("journalctl", []string{a}, true); !errors.Is(err, ErrOptionDenied) {
			t.Errorf("journalctl %s: err = %v, want ErrOptionDenied", a, err)
		}
	}
}

func TestSystemctlTargetsAndPowerUnitsDenied(t *testing.T) {
	f := newFixture(t)
	for _, sub := range []string{"restart", "reload"} {
		for _, u := range []string{"reboot.target", "poweroff.target", "halt.target", "emergency.target", "rescue.target",
			"ctrl-alt-del.target", "kexec.target", "sleep.target", "suspend.target", "hibernate.target", "multi-user.target",
			"graphical.target", "REBOOT.TARGET", "systemd-reboot.service", "systemd-suspend", "reboot", "suspend"} {
			tier, _, why := f.e.cfg.Commands.Classify("systemctl", []string{sub, "nginx", u})
			if tier != TierDeny || !strings.Contains(why, "target") {
				t.Errorf("systemctl %s %s: tier %v (%q), want TierDeny naming targets", sub, u, tier, why)
			}
		}
	}
	if tier, _, _ := f.e.cfg.Commands.Classify("systemctl", []string{"restart", "nginx.service"}); tier != TierAsk {
		t.Errorf("systemctl restart nginx.service: tier %v, want TierAsk", tier)
	}
}

// TestApprovedReadOfDeviceRefused: an approved read outside the roots
// never opens a device: a raw disk reads every file of the file system,
// the deny list's too.
func TestApprovedReadOfDeviceRefused(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"/dev/vda", "/dev/sda", "/dev/loop0", "/dev/kmsg", "/dev/zero", "/dev/urandom"} {
		out, err := f.runCall(t, true, "head", "-c", "64", p)
		if err == nil || len(out.Stdout) > 0 {
			t.Errorf("approved head -c 64 %s: err %v, %d bytes read", p, err, len(out.Stdout))
		}
	}
}

// TestJournalctlDetachedValueRefusalSaysHow: "-n 50" is refused with a
// hint to attach the value.
func TestJournalctlDetachedValueRefusalSaysHow(t *testing.T) {
	f := newFixture(t)
	_, _, _, err := f.e.parse("journalctl", []string{"-u", "nginx", "-n", "50"}, true)
	if !errors.Is(err, ErrOptionDenied) || !strings.Contains(err.Error(), "-n50") {
		t.Errorf("journalctl -n 50: %v, want a refusal suggesting -n50", err)
	}
}

// TestRefusalCodes: a refused path or command carries the failure code
// the user is told (tools.UserTextAbout): head -c 100 /dev/zero said
// only "command_executor 执行失败。".
func TestRefusalCodes(t *testing.T) {
	f := newFixture(t)
	code := func(err error) string {
		if c, ok := errors.AsType[tools.Coded](err); ok {
			return c.FailureCode()
		}
		return ""
	}
	if _, err := f.runCall(t, true, "head", "-c", "100", "/dev/zero"); code(err) != tools.CodeNotRegular {
		t.Errorf("head -c 100 /dev/zero: %v, code %q", err, code(err))
	}
	if _, err := f.runCall(t, false, "reboot"); code(err) != tools.CodeCommandNotAllowed {
		t.Errorf("reboot: %v, code %q", err, code(err))
	}
	// A file argument that does not exist: its own code, so a Chinese
	// answer names it in Chinese (it showed the raw English reason).
	if _, err := f.runCall(t, false, "cat", filepath.Join(f.root, "nope.txt")); code(err) != tools.CodeNotFound {
		t.Errorf("cat nope.txt: %v, code %q", err, code(err))
	}
}
