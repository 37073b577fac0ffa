package eval

import (
	"fmt"
	"os"

	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/command"
	"opsassist/tools/download"
	"opsassist/tools/fileupload"
	"opsassist/tools/pathguard"
	"opsassist/tools/search"
	"opsassist/tools/sysmon"
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
	paths, err := pathguard.New(pathguard.Config{Roots: []string{dir}})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	mon, err := sysmon.New(sysmon.Config{})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer mon.Close()
	cmd, err := command.New(command.Config{Workspace: dir, Paths: paths})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	dl, err := download.New(download.Config{Paths: paths, Tokens: tokens.NewStore(0)})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	var specs []tools.Spec
	for _, t := range []tools.Tool{mon, cmd, search.Tool{}, dl, fileupload.New(nil, 0)} {
		specs = append(specs, t.Spec())
	}
	return specs, nil
}
