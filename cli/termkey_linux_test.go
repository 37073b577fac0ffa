package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// termKeyHelper is the environment variable that makes the test binary
// a helper of TestTerminalKeyThroughWrapper: "key" prints terminalKey,
// "wrap" runs itself as "key" in a process group of its own, as timeout
// does.
const termKeyHelper = "OPSASSIST_TEST_TERMKEY"

// TestTerminalKeyHelper is the helper's body; it does nothing in a
// normal run.
func TestTerminalKeyHelper(t *testing.T) {
	switch os.Getenv(termKeyHelper) {
	case "key":
		c := &CLI{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
		fmt.Printf("KEY=%q\n", c.terminalKey())
	case "wrap":
		cmd := exec.Command(os.Args[0], "-test.run=^TestTerminalKeyHelper$")
		cmd.Env = append(os.Environ(), termKeyHelper+"=key")
		cmd.Stdout = os.Stdout
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTerminalKeyThroughWrapper: "opsassist upload --new app.yaml" then
// "timeout 60 opsassist ask …" used another conversation — the key was
// the parent process whenever stdin was not a terminal, and a wrapper
// is another parent. A child started through a wrapper-like process
// (its own process group, another parent) keys the same conversation as
// one started directly.
func TestTerminalKeyThroughWrapper(t *testing.T) {
	run := func(mode string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTerminalKeyHelper$")
		cmd.Env = append(os.Environ(), termKeyHelper+"="+mode)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if k, ok := strings.CutPrefix(l, "KEY="); ok {
				return k
			}
		}
		t.Fatalf("%s: no key in %q", mode, out.String())
		return ""
	}
	direct, wrapped := run("key"), run("wrap")
	if direct != wrapped {
		t.Errorf("through a wrapper the key is %s, directly %s", wrapped, direct)
	}
	if strings.HasPrefix(direct, `"ppid:`) {
		t.Errorf("keyed on the parent process: %s", direct)
	}
}

// TestTTYNr reads the controlling terminal from /proc/PID/stat's field
// 7; 0 is none.
func TestTTYNr(t *testing.T) {
	if got := ttyNr("42 (a (b) c) S 1 42 42 34816 42 0"); got != "dev:34816" {
		t.Errorf("ttyNr = %q", got)
	}
	if got := ttyNr("42 (sh) S 1 42 42 0 -1 0"); got != "" {
		t.Errorf("no tty: %q", got)
	}
}
