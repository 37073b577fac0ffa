package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCommandDeps runs `go list -deps` on the opsassist command and fails
// if it links a transport server or the server's composition root: the
// command line talks to the server over the network, through the client
// library, and never runs one.
func TestCommandDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", "opsassist/cmd/opsassist").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "opsassist/transport/") || p == "opsassist/daemon" || strings.HasPrefix(p, "opsassist/daemon/") {
			t.Errorf("opsassist/cmd/opsassist links %s", p)
		}
	}
}
