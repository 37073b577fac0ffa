package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/tools"
)

// Defaults of ServerConfig and Config.
const (
	DefaultStartupTimeout = 30 * time.Second
	DefaultCallTimeout    = 60 * time.Second
	DefaultHealthInterval = 30 * time.Second
	DefaultBackoffBase    = time.Second
	DefaultBackoffMax     = 60 * time.Second
	// DefaultBreakerFailures is how many failures in a row open the
	// circuit breaker (Backoff).
	DefaultBreakerFailures = 5
	// DefaultBreakerCooldown is how long an open circuit waits before
	// the next attempt.
	DefaultBreakerCooldown = 5 * time.Minute
	// DefaultStableAfter is how long a session must stay up before a
	// crash no longer counts as one more failure in a row.
	DefaultStableAfter = time.Minute
)

// Sentinel errors.
var (
	// ErrConfig is returned (wrapped) by New and Apply for a server
	// configuration that cannot work: no name, a repeated name, neither
	// or both of Command and URL.
	ErrConfig = errors.New("mcp: invalid server configuration")
	// ErrUnavailable is the error (wrapped, with tools.ErrNotSent) of a
	// call to a server that has no session, or whose session's
	// connection is gone before the request left (closing, the server
	// cannot be reached, it no longer knows the session): the request
	// was not sent.
	ErrUnavailable = errors.New("mcp: server unavailable")
	// ErrConnectionLost is the error (wrapped) of a call whose session
	// ended while the call was in flight: it may or may not have run.
	ErrConnectionLost = errors.New("mcp: connection to the server lost during the call")
	// ErrClosed is returned by Apply after Close.
	ErrClosed = errors.New("mcp: manager closed")
)

// ServerConfig is one MCP server: either a command to run (stdio) or a
// URL (streamable HTTP).
type ServerConfig struct {
	// Name names the server: the Source of its tools, and the middle of
	// their names (mcp__<server>__<tool>).
	Name string

	// Command, Args, Env and Cwd start a stdio server. The child's
	// environment is Env plus PATH, HOME and LANG from the daemon's —
	// nothing else of the daemon's environment.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// URL is a streamable HTTP server's endpoint; Headers are sent on
	// every request to it.
	URL     string
	Headers map[string]string

	// StartupTimeout bounds initialize and the first tool list (default
	// 30s); it also bounds each health check. CallTimeout bounds one
	// call attempt (default 60s).
	StartupTimeout, CallTimeout time.Duration

	// EnabledTools, if not empty, are the only server tools registered;
	// DisabledTools are never registered. Names as on the server.
	EnabledTools, DisabledTools []string

	// Risk overrides the risk of a server tool, by its name on the
	// server.
	Risk map[string]tools.Risk

	// HealthCheckTool, if set, is a read-only server tool called with
	// no arguments by each health check, after the tool list. A tool the
	// server does not list, that EnabledTools/DisabledTools leave out or
	// that is not read-only (annotations, or Risk) is not called: health
	// checks only list the tools, and the ready server's Reason says so.
	HealthCheckTool string

	// Hidden are more values the manager hides like the secrets above
	// (as "***") in every reason, warning and call error: the config
	// layer puts there the values ${VAR} references gave Command and Cwd
	// (each variable's value, and the whole expanded field), which the
	// errors of starting a child quote (exec: "…": executable file not
	// found, chdir …). Values under 4 bytes are not hidden.
	Hidden []string

	// Unavailable, when not "", says why this server cannot be started
	// from its configuration as resolved (an unset ${VAR}: "mcp_servers.gh.
	// headers.Authorization: environment variable GH_TOKEN is not set"):
	// it is not started, Status shows it unavailable with this reason,
	// and it has no tools; the other servers run. An Apply with a
	// configuration that resolves starts it. The text must hold no
	// secret. Command and URL are not checked.
	Unavailable string
}

// withDefaults returns s with its zero timeouts set.
func (s ServerConfig) withDefaults() ServerConfig {
	if s.StartupTimeout <= 0 {
		s.StartupTimeout = DefaultStartupTimeout
	}
	if s.CallTimeout <= 0 {
		s.CallTimeout = DefaultCallTimeout
	}
	return s
}

// check reports a configuration that cannot work (ErrConfig).
func (s ServerConfig) check() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("%w: a server without a name", ErrConfig)
	case s.Name == tools.SourceBuiltin:
		return fmt.Errorf("%w: %q names the built-in tools", ErrConfig, s.Name)
	case strings.Contains(s.Name, ":"):
		// Role patterns are "source:tool".
		return fmt.Errorf("%w: %q: a server name cannot contain ':'", ErrConfig, s.Name)
	case strings.Contains(s.Name, "__") || strings.HasPrefix(s.Name, "_") || strings.HasSuffix(s.Name, "_"):
		// Tools are mcp__<server>__<tool>: server a with tool b__c and
		// server a__b with tool c would be one name.
		return fmt.Errorf("%w: %q: a server name cannot contain \"__\" nor start or end with '_'", ErrConfig, s.Name)
	case s.Unavailable != "":
		// Not started: what it runs does not matter.
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("%w: %s: neither command nor url", ErrConfig, s.Name)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("%w: %s: both command and url", ErrConfig, s.Name)
	}
	return nil
}

// Backoff is how a failed server is retried: the n-th attempt in a row
// after min(Base·2ⁿ⁻¹, Max) ±25 % jitter; after BreakerFailures
// failures in a row the circuit opens, and the next attempt waits
// BreakerCooldown. Zero fields take the defaults.
type Backoff struct {
	Base, Max       time.Duration
	BreakerFailures int
	BreakerCooldown time.Duration
	// StableAfter is how long a session must stay up for its end not to
	// count as a failure in a row (a crash loop that gets through
	// initialize each time still opens the circuit).
	StableAfter time.Duration
}

func (b Backoff) withDefaults() Backoff {
	if b.Base <= 0 {
		b.Base = DefaultBackoffBase
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	b.Max = max(b.Max, b.Base)
	if b.BreakerFailures <= 0 {
		b.BreakerFailures = DefaultBreakerFailures
	}
	if b.BreakerCooldown <= 0 {
		b.BreakerCooldown = DefaultBreakerCooldown
	}
	if b.StableAfter <= 0 {
		b.StableAfter = DefaultStableAfter
	}
	return b
}

// delay is the wait before the next attempt after failures failures in
// a row, and whether the circuit is open; j is in [0, 1).
func (b Backoff) delay(failures int, j float64) (time.Duration, bool) {
	if failures >= b.BreakerFailures {
		return b.BreakerCooldown, true
	}
	d := b.Base
	for i := 1; i < failures && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return d + time.Duration((j-0.5)*0.5*float64(d)), false
}

// Config configures a Manager.
type Config struct {
	// Servers are the servers to run.
	Servers []ServerConfig
	// Registry receives each server's tools (ReplaceSource). Required.
	Registry *tools.Registry
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// Now returns the current time. Default time.Now.
	Now func() time.Time
	// HealthInterval is the time between health checks of a ready
	// server. Default 30s.
	HealthInterval time.Duration
	// Backoff is how failed servers are retried.
	Backoff Backoff
	// Jitter returns a number in [0, 1) for the backoff's jitter.
	// Default math/rand/v2.Float64.
	Jitter func() float64
	// Transport, if set, makes each session's transport (tests: in-memory
	// transports). Default: a CommandTransport for Command, a
	// StreamableClientTransport for URL.
	Transport func(ctx context.Context, s ServerConfig) (sdk.Transport, error)
	// OnChange, if set, is called with a server's status after each
	// change of it (state, reason, restarts, tools), from the server's
	// goroutine; it must not block for long.
	OnChange func(ServerStatus)
}

// ServerStatus is a server's state as /api/health shows it.
type ServerStatus struct {
	Name string
	// State is StateStarting, StateReady or StateUnavailable.
	State string
	// Reason says why the server is unavailable (and when the next
	// attempt is); for a ready server, why its HealthCheckTool is not
	// called, or "" (always "" while starting).
	Reason string
	// Restarts counts the sessions started after the first.
	Restarts int
	// Tools is how many of its tools are registered.
	Tools int
}

// Server states.
const (
	StateStarting    = "starting"
	StateReady       = "ready"
	StateUnavailable = "unavailable"
)
