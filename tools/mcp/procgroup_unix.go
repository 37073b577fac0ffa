//go:build unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own, so that
// killProcessGroup reaches what it starts too (sh -c "helper & exec
// server").
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to the process group p leads; a group
// already gone is no error.
func killProcessGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
