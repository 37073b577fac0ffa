//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup does nothing where there are no process groups; the
// child itself is ended by the transport.
func killProcessGroup(*os.Process) {}
