package daemon

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/chat"
	"opsassist/config"
	"opsassist/internal/watch"
	"opsassist/tools"
	"opsassist/tools/mcp"
)

// reloader applies the MCP servers of the configuration files,
// limits.max_tools and retention.* when they change: the daemon's config
// file and the --mcp-config .mcp.json. The other keys take effect at the
// next start; a change to one is logged.
// An invalid configuration keeps the previous servers; the error shows
// in /api/health under "config" until a reload succeeds.
type reloader struct {
	file, mcpFile string   // read by config.Reload; mcpFile empty unless a flag set it
	watched       []string // the file and the .mcp.json read at start
	lookup        func(string) (string, bool)
	opts          []config.Option // Load's options, read again at each reload
	mcp           *mcp.Manager
	reg           *tools.Registry // takes limits.max_tools
	// retention takes retention.*; nil: not applied (tests of the MCP
	// servers alone).
	retention *chat.RetentionPolicy
	log       *zap.Logger

	last config.Config // the last configuration read; owned by run

	mu     sync.Mutex
	failed string // the last reload's error, redacted; empty after a good one
}

// newReloader returns a reloader of the files cfg was read from, or nil
// when it was read from none.
func newReloader(cfg config.Config, lookup func(string) (string, bool), m *mcp.Manager, reg *tools.Registry, log *zap.Logger) *reloader {
	if cfg.File == "" && cfg.MCPConfig == "" {
		return nil
	}
	r := &reloader{file: cfg.File, mcpFile: cfg.MCPConfig, lookup: lookup, mcp: m, reg: reg, log: log}
	if cfg.AllowUnsetTokens {
		r.opts = append(r.opts, config.WithUnsetTokens)
	}
	// A .mcp.json named in the file (or the environment) is read from
	// there again at each reload, so a new mcp_config is seen (and named
	// in the restart warning: the old path stays watched); one named by
	// --mcp-config stays.
	if c, err := config.Reload(r.file, "", r.lookup, r.opts...); err == nil && c.MCPConfig == cfg.MCPConfig {
		r.mcpFile = ""
	}
	// What later reloads are compared with: read the same way, so flags
	// and the daemon's own adjustments (absolute paths) are no change.
	if c, err := config.Reload(r.file, r.mcpFile, r.lookup, r.opts...); err == nil {
		r.last = c
	} else {
		r.last = cfg
	}
	r.watched = slices.DeleteFunc([]string{cfg.File, cfg.MCPConfig}, func(f string) bool { return f == "" })
	return r
}

// run watches the files until ctx ends and reloads after each change.
func (r *reloader) run(ctx context.Context) {
	files := r.watched
	w, err := watch.New(watch.Config{Files: files, Logger: r.log})
	if err != nil {
		r.log.Warn("configuration files not watched; changes need a restart", zap.Error(err))
		return
	}
	defer w.Close()
	r.log.Info("watching the configuration for changes to mcp_servers, limits.max_tools and retention", zap.Strings("files", files))
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.Changes():
			r.reload()
		}
	}
}

// reload reads the files and applies their MCP servers,
// limits.max_tools and retention.*, or keeps the previous ones and
// records the error.
func (r *reloader) reload() {
	c, err := config.Reload(r.file, r.mcpFile, r.lookup, r.opts...)
	var servers []mcp.ServerConfig
	if err == nil {
		servers, err = c.ResolveMCPServers(r.lookup)
	}
	if err == nil {
		err = r.mcp.Apply(servers)
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	r.mu.Lock()
	r.failed = msg
	r.mu.Unlock()
	if err != nil {
		// Config errors name keys and variables, never values (a YAML
		// type error's quoted value is hidden by config).
		r.log.Error("configuration reload failed; the previous MCP servers stay", zap.String("error", msg))
		return
	}
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = s.Name
	}
	r.log.Info("configuration reloaded", zap.Strings("mcp_servers", names))
	if c.Limits.MaxTools != r.last.Limits.MaxTools {
		r.reg.SetMaxOffered(c.Limits.MaxTools)
		r.log.Info("limits.max_tools applied", zap.Int("max_tools", c.Limits.MaxTools))
	}
	if r.retention != nil && r.retention.Set(retention(c.Retention)) {
		// RunRetentionPolicy applies it at once.
		r.log.Info("retention applied", zap.Bool("drop_empty", c.Retention.DropEmpty),
			zap.Int("max_conversations", c.Retention.MaxConversations), zap.Duration("max_age", time.Duration(c.Retention.MaxAge)))
	}
	if keys := config.Changed(r.last, c); len(keys) > 0 {
		r.log.Warn("restart to apply: " + strings.Join(keys, ", "))
	}
	r.last = c
}

// state is the "config" component of /api/health.
func (r *reloader) state() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed != "" {
		return "reload failed: " + r.failed
	}
	return "ok"
}
