package main

import "testing"

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
