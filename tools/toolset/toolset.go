// Package toolset builds the agent's five tools from one configuration,
// so the daemon and the eval describe and run the same tools.
package toolset

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/askuser"
	"opsassist/tools/command"
	"opsassist/tools/download"
	"opsassist/tools/fileupload"
	"opsassist/tools/pathguard"
	"opsassist/tools/policy"
	"opsassist/tools/search"
	"opsassist/tools/sysmon"
)

// Config says where the tools may work.
type Config struct {
	// Workspace is command_executor's working directory (absolute).
	Workspace string
	// Roots are the directories commands and downloads may read.
	Roots []string
	// AllowHardlinks lets commands and downloads read files with more
	// than one hard link (pathguard.Config.AllowHardlinks). Default false.
	AllowHardlinks bool
	// UploadsDir holds every conversation's uploads; downloads from it are
	// limited to the calling conversation's own files, and commands never
	// see it.
	UploadsDir string
	// Protected are the daemon's own files and directories: its data
	// directory (history, index, uploads), config file, TLS key and
	// certificate, log file. Commands and downloads are refused them,
	// never asked, by the path as written and as resolved
	// (pathguard.Config.Protected); downloads still reach the uploads,
	// whose owner file_download checks.
	Protected []string
	// Commands are command_executor's tiers, the value the planners read
	// too (command.NewTiers). Default: the zero Tiers, the default
	// whitelist and ask tier.
	Commands command.Tiers
	// Permissions are the permission policy's rules and confirmation
	// timeout; New adds the tools that inspect their calls
	// (command_executor, file_download). The zero value is the defaults:
	// reads inside the roots and the whitelist run, paths outside the
	// roots and the ask tier are asked about, secrets and the deny list
	// are refused.
	Permissions policy.Config
	// RDTAddr and HTTPBase are where offered downloads are served.
	RDTAddr, HTTPBase string
	// Search is semantic_search's index and upload-indexing waiter;
	// without an index the tool answers that search is unavailable.
	Search search.Config
	// Observer, if set, is told about every tool call (metrics).
	Observer tools.Observer
	// Audit, if set, records every tool call (tools/audit).
	Audit tools.Recorder
	// Limiter, if set, refuses calls over a user's rate limit
	// (tools/ratelimit).
	Limiter tools.RateLimiter
	// MaxOffered caps the tools offered to the model (tools.Config).
	MaxOffered int
	// SearchObserver, if set, is told the latency of every semantic
	// search.
	SearchObserver SearchObserver
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

// SearchObserver records search latency (metrics.Metrics).
type SearchObserver interface {
	SearchDone(d time.Duration)
}

// Set is the registered tools. Close stops the monitor's sampler.
type Set struct {
	// Registry runs the agent's tool calls.
	Registry *tools.Registry
	// Tokens holds the download tokens file_download issues; the HTTP
	// and RDT servers serve files against it.
	Tokens *tokens.Store
	// Monitor is the sys_monitor tool, also read by the web page's live
	// panel.
	Monitor *sysmon.Monitor
	// Policy is the permission policy the Registry consults; its
	// Timeout is how long a confirmation waits.
	Policy *policy.Policy
}

// New builds and registers sys_monitor, command_executor,
// semantic_search, file_download, file_upload and ask_user.
func New(cfg Config) (*Set, error) {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	// Commands never see the uploads, not even approved: another
	// conversation's files are there. pathguard resolves each protected
	// path, so a data directory reached through a link is refused by
	// its real path too.
	cmdProtected := slices.Clone(cfg.Protected)
	if cfg.UploadsDir != "" {
		cmdProtected = append(cmdProtected, cfg.UploadsDir)
	}
	cmdPaths, err := pathguard.New(pathguard.Config{Roots: cfg.Roots, Protected: cmdProtected, BaseDir: cfg.Workspace, AllowHardlinks: cfg.AllowHardlinks})
	if err != nil {
		return nil, err
	}
	roots := slices.Clone(cfg.Roots)
	if cfg.UploadsDir != "" {
		roots = append(roots, cfg.UploadsDir)
	}
	var exempt []string
	if cfg.UploadsDir != "" {
		exempt = []string{cfg.UploadsDir}
	}
	paths, err := pathguard.New(pathguard.Config{Roots: roots, Protected: cfg.Protected, Exempt: exempt, BaseDir: cfg.Workspace, AllowHardlinks: cfg.AllowHardlinks})
	if err != nil {
		return nil, err
	}
	cmd, err := command.New(command.Config{Commands: cfg.Commands, Workspace: cfg.Workspace, Paths: cmdPaths, Logger: cfg.Logger.Named("command")})
	if err != nil {
		return nil, err
	}
	toks := tokens.NewStore(0)
	dl, err := download.New(download.Config{Paths: paths, Approved: paths.Approved(), Tokens: toks, UploadsDir: cfg.UploadsDir, RDTAddr: cfg.RDTAddr, HTTPBase: cfg.HTTPBase})
	if err != nil {
		return nil, err
	}
	mon, err := sysmon.New(sysmon.Config{Logger: cfg.Logger.Named("sysmon")})
	if err != nil {
		return nil, err
	}
	pcfg := cfg.Permissions
	pcfg.Inspectors = map[string]policy.Inspector{cmd.Spec().Name: cmd, dl.Spec().Name: dl}
	pol, err := policy.New(pcfg)
	if err != nil {
		mon.Close()
		return nil, fmt.Errorf("toolset: %w", err)
	}
	reg := tools.NewRegistry(tools.Config{Policy: pol, Observer: cfg.Observer, Audit: cfg.Audit, Limiter: cfg.Limiter, MaxOffered: cfg.MaxOffered, Logger: cfg.Logger.Named("tools")})
	var searchTool tools.Tool = search.New(cfg.Search)
	if cfg.SearchObserver != nil {
		searchTool = timed{Tool: searchTool, obs: cfg.SearchObserver}
	}
	for _, t := range []tools.Tool{mon, cmd, searchTool, dl, fileupload.New(nil, 0), askuser.Tool{}} {
		if err := reg.Register(t); err != nil {
			mon.Close()
			return nil, fmt.Errorf("toolset: %w", err)
		}
	}
	return &Set{Registry: reg, Tokens: toks, Monitor: mon, Policy: pol}, nil
}

// Close stops the background work of the tools.
func (s *Set) Close() error { return s.Monitor.Close() }

// timed reports the duration of every run of its tool.
type timed struct {
	tools.Tool
	obs SearchObserver
}

// Run runs the tool and reports how long it took.
func (t timed) Run(ctx context.Context, call *tools.Call, args json.RawMessage) (any, error) {
	start := time.Now()
	defer func() { t.obs.SearchDone(time.Since(start)) }()
	return t.Tool.Run(ctx, call, args)
}
