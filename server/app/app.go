// Package app assembles the opsassist daemon from a config.Config: storage,
// the chat core, the agent and the transports. cmd/opsassistd only parses
// flags and handles signals.
package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/agent/llm"
	"opsassist/rdt"
	"opsassist/server"
	"opsassist/server/chat"
	"opsassist/server/config"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
	"opsassist/tools/toolset"
)

// Version is the daemon version reported to clients.
const Version = "0.1.0"

// App is a running daemon.
type App struct {
	cfg   config.Config
	log   *zap.Logger
	chat  *chat.Service
	nplt  *server.Server
	ln    net.Listener
	tools *toolset.Set
	rdt   *rdt.Server
	udp   net.PacketConn

	wg      sync.WaitGroup
	serveMu sync.Mutex
	errs    []error
}

// New builds the daemon and binds its listeners, so a caller knows the
// addresses are ready when New returns.
func New(cfg config.Config, log *zap.Logger) (*App, error) {
	if log == nil {
		log = zap.NewNop()
	}
	// Recorded file paths must not depend on the directory the daemon
	// was started from.
	data, err := filepath.Abs(cfg.Data)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	cfg.Data = data
	hist, err := history.Open(filepath.Join(cfg.Data, "history"), log.Named("history"))
	if err != nil {
		return nil, err
	}
	ups, err := uploads.NewStore(filepath.Join(cfg.Data, "uploads"), cfg.Limits.MaxUpload)
	if err != nil {
		return nil, err
	}
	// Bind the RDT socket first, so offers name the real address (port 0
	// in tests).
	udp, err := net.ListenPacket("udp", cfg.RDT)
	if err != nil {
		return nil, fmt.Errorf("rdt: %w", err)
	}
	cfg.RDT = udp.LocalAddr().String()
	planners, models := newPlanners(cfg, os.LookupEnv, log)
	ag, set, err := newAgent(cfg, planners, log)
	if err != nil {
		udp.Close()
		return nil, err
	}
	svc, err := chat.New(chat.Config{
		History:      hist,
		Uploads:      ups,
		Agent:        ag,
		Models:       models,
		DefaultModel: defaultModel(cfg.LLM, models, log),
		Logger:       log.Named("chat"),
	})
	if err != nil {
		udp.Close()
		return nil, err
	}
	srv, err := server.New(server.Config{
		Chat:         svc,
		MaxClients:   cfg.Limits.MaxClients,
		IdleTimeout:  cfg.Limits.IdleTimeout,
		StallTimeout: cfg.Limits.StallTimeout,
		WriteTimeout: cfg.Limits.WriteTimeout,
		AuthToken:    cfg.AuthToken,
		Tokens:       set.Tokens,
		Version:      Version,
		Logger:       log.Named("nplt"),
	})
	if err != nil {
		udp.Close()
		return nil, err
	}
	rsrv, err := rdt.NewServer(rdt.ServerConfig{
		Tokens:       set.Tokens,
		Logger:       log.Named("rdt"),
		MaxTransfers: cfg.Limits.RDTMaxTransfers,
		MaxPerAddr:   cfg.Limits.RDTMaxPerAddr,
		RateLimit:    cfg.Limits.RDTRateLimit,
	})
	if err != nil {
		udp.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.NPLT)
	if err != nil {
		udp.Close()
		return nil, fmt.Errorf("nplt: %w", err)
	}
	return &App{cfg: cfg, log: log, chat: svc, nplt: srv, ln: ln, tools: set, rdt: rsrv, udp: udp}, nil
}

// newPlanners builds the built-in planner and one LLM planner per
// provider whose API key is set (or that needs none). It returns them
// with the usable model names, builtin first.
func newPlanners(cfg config.Config, lookup func(string) (string, bool), log *zap.Logger) (map[string]agent.Planner, []string) {
	planners := map[string]agent.Planner{"builtin": builtin.Planner{}}
	models := []string{"builtin"}
	for _, p := range cfg.AllProviders() {
		key := ""
		if p.APIKeyEnv != "" {
			var ok bool
			if key, ok = lookup(p.APIKeyEnv); !ok || key == "" {
				log.Debug("provider unavailable: API key not set", zap.String("provider", p.Name), zap.String("env", p.APIKeyEnv))
				continue
			}
		}
		planners[p.Name] = llm.New(llm.Config{BaseURL: p.BaseURL, Model: p.Model, APIKey: key, Timeout: p.Timeout,
			TextProtocol: p.TextProtocol, Logger: log.Named("llm").With(zap.String("provider", p.Name))})
		models = append(models, p.Name)
	}
	return planners, models
}

// defaultModel is the configured model if it is usable, else builtin: the
// offline planner is the default whenever no provider key is configured.
func defaultModel(want string, models []string, log *zap.Logger) string {
	if slices.Contains(models, want) {
		return want
	}
	log.Warn("model unavailable (no API key); using the built-in planner", zap.String("llm", want))
	return "builtin"
}

// newAgent builds the tools and the agent over the planners.
func newAgent(cfg config.Config, planners map[string]agent.Planner, log *zap.Logger) (*agent.Agent, *toolset.Set, error) {
	ws, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	uploadsDir := filepath.Join(cfg.Data, "uploads")
	roots := cfg.AllowedRoots
	if len(roots) == 0 {
		roots = []string{ws}
		if docs, err := filepath.Abs("docs"); err == nil {
			if st, err := os.Stat(docs); err == nil && st.IsDir() {
				roots = append(roots, docs)
			}
		}
	}
	// Commands see the roots only; uploads belong to their conversations
	// and are reached through file_upload and file_download, which check
	// that the caller's conversation owns them.
	set, err := toolset.New(toolset.Config{Workspace: ws, Roots: roots, UploadsDir: uploadsDir, Commands: cfg.Commands,
		RDTAddr: cfg.RDT, HTTPBase: "http://" + cfg.HTTP, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	ag, err := agent.New(agent.Config{Planners: planners, Tools: set.Registry, Logger: log.Named("agent")})
	if err != nil {
		set.Close()
		return nil, nil, err
	}
	return ag, set, nil
}

// NPLTAddr returns the address the NPLT server listens on.
func (a *App) NPLTAddr() net.Addr { return a.ln.Addr() }

// RDTAddr returns the UDP address the RDT server listens on.
func (a *App) RDTAddr() net.Addr { return a.udp.LocalAddr() }

// Start serves in the background.
func (a *App) Start() {
	a.log.Info("nplt listening", zap.Stringer("addr", a.ln.Addr()))
	a.log.Info("http is configured but not served by this build yet", zap.String("http", a.cfg.HTTP))
	a.wg.Add(2)
	go func() {
		defer a.wg.Done()
		if err := a.nplt.Serve(a.ln); err != nil && !errors.Is(err, server.ErrServerClosed) {
			a.log.Error("nplt server failed", zap.Error(err))
			a.addErr(err)
		}
	}()
	go func() {
		defer a.wg.Done()
		if err := a.rdt.Serve(a.udp); err != nil && !errors.Is(err, rdt.ErrServerClosed) {
			a.log.Error("rdt server failed", zap.Error(err))
			a.addErr(err)
		}
	}()
}

func (a *App) addErr(err error) {
	a.serveMu.Lock()
	a.errs = append(a.errs, err)
	a.serveMu.Unlock()
}

// Shutdown stops accepting, lets replies in flight finish until ctx ends,
// then stops background work. History is fsynced per turn, so nothing is
// left to flush once the connections are closed.
func (a *App) Shutdown(ctx context.Context) error {
	err := a.nplt.Shutdown(ctx)
	if rerr := a.rdt.Shutdown(ctx); err == nil && !errors.Is(rerr, context.DeadlineExceeded) && !errors.Is(rerr, context.Canceled) {
		err = rerr
	}
	a.wg.Wait()
	if cerr := a.chat.Close(ctx); err == nil {
		err = cerr
	}
	if cerr := a.tools.Close(); err == nil {
		err = cerr
	}
	a.serveMu.Lock()
	defer a.serveMu.Unlock()
	return errors.Join(append([]error{err}, a.errs...)...)
}

// NewLogger builds the zap logger described by cfg.
func NewLogger(cfg config.Log) (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(cfg.Level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	var zc zap.Config
	if cfg.Format == "json" {
		zc = zap.NewProductionConfig()
	} else {
		zc = zap.NewDevelopmentConfig()
		zc.DisableStacktrace = true
	}
	zc.Level = zap.NewAtomicLevelAt(level)
	zc.OutputPaths = []string{"stderr"}
	return zc.Build()
}
