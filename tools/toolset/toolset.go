// Package toolset builds the agent's five tools from one configuration,
// so the daemon and the eval describe and run the same tools.
package toolset

import (
	"fmt"
	"slices"

	"go.uber.org/zap"

	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/command"
	"opsassist/tools/download"
	"opsassist/tools/fileupload"
	"opsassist/tools/pathguard"
	"opsassist/tools/search"
	"opsassist/tools/sysmon"
)

// Config says where the tools may work.
type Config struct {
	// Workspace is command_executor's working directory (absolute).
	Workspace string
	// Roots are the directories commands and downloads may read.
	Roots []string
	// UploadsDir holds every conversation's uploads; downloads from it are
	// limited to the calling conversation's own files, and commands never
	// see it.
	UploadsDir string
	// Commands is the command whitelist; nil means the default.
	Commands []string
	// RDTAddr and HTTPBase are where offered downloads are served.
	RDTAddr, HTTPBase string
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

// Set is the registered tools. Close stops the monitor's sampler.
type Set struct {
	Registry *tools.Registry
	// Tokens holds the download tokens file_download issues; the RDT
	// server checks requests against it.
	Tokens  *tokens.Store
	monitor *sysmon.Monitor
}

// New builds and registers sys_monitor, command_executor,
// semantic_search, file_download and file_upload.
func New(cfg Config) (*Set, error) {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	cmdPaths, err := pathguard.New(pathguard.Config{Roots: cfg.Roots, BaseDir: cfg.Workspace})
	if err != nil {
		return nil, err
	}
	roots := slices.Clone(cfg.Roots)
	if cfg.UploadsDir != "" {
		roots = append(roots, cfg.UploadsDir)
	}
	paths, err := pathguard.New(pathguard.Config{Roots: roots, BaseDir: cfg.Workspace})
	if err != nil {
		return nil, err
	}
	cmd, err := command.New(command.Config{Whitelist: cfg.Commands, Workspace: cfg.Workspace, Paths: cmdPaths, Logger: cfg.Logger.Named("command")})
	if err != nil {
		return nil, err
	}
	store := tokens.NewStore(0)
	dl, err := download.New(download.Config{Paths: paths, Tokens: store, UploadsDir: cfg.UploadsDir, RDTAddr: cfg.RDTAddr, HTTPBase: cfg.HTTPBase})
	if err != nil {
		return nil, err
	}
	mon, err := sysmon.New(sysmon.Config{Logger: cfg.Logger.Named("sysmon")})
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry(tools.Config{Logger: cfg.Logger.Named("tools")})
	for _, t := range []tools.Tool{mon, cmd, search.Tool{}, dl, fileupload.New(nil, 0)} {
		if err := reg.Register(t); err != nil {
			mon.Close()
			return nil, fmt.Errorf("toolset: %w", err)
		}
	}
	return &Set{Registry: reg, Tokens: store, monitor: mon}, nil
}

// Close stops the background work of the tools.
func (s *Set) Close() error { return s.monitor.Close() }
