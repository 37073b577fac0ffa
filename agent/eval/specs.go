package eval

import (
	"fmt"
	"os"

	"opsassist/tools"
	"opsassist/tools/toolset"
)

// DefaultSpecs returns the specs of the five tools as the daemon
// registers them with its defaults (the default command whitelist). The
// tools are built only to be described: the command tool's workspace is a
// temporary directory, removed again, and the monitor is closed.
func DefaultSpecs() ([]tools.Spec, error) {
	dir, err := os.MkdirTemp("", "opsassist-eval-")
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(dir)
	set, err := toolset.New(toolset.Config{Workspace: dir, Roots: []string{dir}})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer set.Close()
	return set.Registry.Specs(), nil
}
