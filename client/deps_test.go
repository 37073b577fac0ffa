package client

import (
	"os/exec"
	"strings"
	"testing"
)

// forbiddenDeps are the packages (and the trees under them) the client
// library must not link: the server's components, its configuration and
// the transports. A desktop client or a test imports the library without
// the server.
var forbiddenDeps = []string{
	"opsassist/agent", "opsassist/storage", "opsassist/tools", "opsassist/config",
	"opsassist/chat", "opsassist/daemon", "opsassist/transport", "opsassist/cli",
}

// allowedDeps are forbidden packages reached only through another
// package's code still in transit. rdt links storage/tokens for its
// server side (rdt/server.go's TokenStore); the RDT server moves to
// transport/rdtserver in issue 11, and this entry goes with it.
var allowedDeps = map[string]bool{"opsassist/storage/tokens": true}

// TestLibraryDeps runs `go list -deps` on the client library and fails if
// it links a forbidden package.
func TestLibraryDeps(t *testing.T) {
	for _, p := range listDeps(t, "opsassist/client") {
		for _, f := range forbiddenDeps {
			if (p == f || strings.HasPrefix(p, f+"/")) && !allowedDeps[p] {
				t.Errorf("opsassist/client links %s", p)
			}
		}
	}
}

// listDeps returns the import paths `go list -deps pkg` prints, skipping
// the test when the go command is not available.
func listDeps(t *testing.T, pkg string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}
