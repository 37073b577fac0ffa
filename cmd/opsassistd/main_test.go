package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestBadFlagsExit2: a bad flag exits 2, --help exits 0. The test that
// builds and runs the daemon is e2e.TestDaemonRunsAndStopsOnSIGTERM.
func TestBadFlagsExit2(t *testing.T) {
	if code := run([]string{"--nplt", "nonsense"}); code != 2 {
		t.Fatalf("exit %d", code)
	}
	if code := run([]string{"--help"}); code != 0 {
		t.Fatalf("--help exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	var b strings.Builder
	if !printVersion(&b, []string{"--data", "x", "--version"}) {
		t.Fatal("--version not seen")
	}
	if !regexp.MustCompile(`^opsassistd \d+\.\d+\.\d+ \(commit \S+, go\S+\)\n$`).MatchString(b.String()) {
		t.Errorf("version line %q", b.String())
	}
	if printVersion(&b, []string{"--", "--version"}) || printVersion(&b, []string{"--data", "x"}) {
		t.Error("version printed without --version")
	}
	if code := run([]string{"--version"}); code != 0 {
		t.Fatalf("--version exit %d", code)
	}
}

func TestWantsHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--help"}, true},
		{[]string{"--data", "x", "-h"}, true},
		{[]string{"-help"}, true},
		{[]string{"--", "--help"}, false},
		{[]string{"--nplt", "nonsense"}, false},
	} {
		if got := wantsHelp(tc.args); got != tc.want {
			t.Errorf("wantsHelp(%q) = %v", tc.args, got)
		}
	}
}
