package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/chat"
	"opsassist/tools"
)

// Runner runs the calls MCP clients make (tools.Registry implements
// it): every call goes through the registry's validation, policy, rate
// limits and audit log.
type Runner interface {
	// Specs returns every registered tool's Spec; the server offers the
	// built-in ones (Spec.Source tools.SourceBuiltin) only.
	Specs() []tools.Spec
	// Execute runs one call; it never fails, a refusal or a tool error
	// comes back as an unsuccessful Result.
	Execute(ctx context.Context, call *tools.Call, name, rawArgs string) tools.Outcome
	// Refuse records a call that is not run (decidedBy its decider,
	// reason its error) and returns its refused Outcome.
	Refuse(call *tools.Call, name, rawArgs, decidedBy, reason string) tools.Outcome
}

var _ Runner = (*tools.Registry)(nil)

// Defaults of Config fields.
const (
	DefaultMaxSessions    = 64
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxBody        = 1 << 20
	DefaultMaxResult      = 1 << 20

	DefaultMaxSessionsPerUser = 16
	DefaultMaxCallsPerSession = 4
	DefaultMaxCallsPerUser    = 8
)

// Config is what a Server needs. Zero values take the defaults in the
// field comments.
type Config struct {
	// Runner runs the calls. Required.
	Runner Runner
	// Version is the server version reported in the MCP handshake.
	// Default "dev".
	Version string
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// PermissionTimeout bounds how long a call the policy put at ask
	// waits for the client's answer to its elicitation; no answer by then
	// is a deny (decided_by "timeout"). The daemon passes
	// permissions.timeout. Default chat.DefaultPermissionTimeout (120s).
	PermissionTimeout time.Duration
	// MaxSessions bounds the live MCP sessions over HTTP; a new one past
	// it is refused with 503 until one ends. Default 64.
	MaxSessions int
	// SessionTimeout closes an HTTP session that made no request for
	// this long. Default 30 minutes.
	SessionTimeout time.Duration
	// MaxBody bounds one HTTP request body (413 past it). Default 1 MiB.
	MaxBody int64
	// MaxSessionsPerUser bounds the live MCP sessions over HTTP of one
	// user (principal); a new one past it is refused with 503 for that
	// user only, so one user cannot take every session. Default 16.
	MaxSessionsPerUser int
	// MaxCallsPerSession bounds the calls one MCP session runs at once;
	// a call past it is refused at once (isError, never queued).
	// Default 4.
	MaxCallsPerSession int
	// MaxCallsPerUser bounds the calls one user (principal) runs at once
	// over all their MCP sessions, HTTP and stdio; a call past it is
	// refused at once. Default 8.
	MaxCallsPerUser int
	// MaxResult bounds the output a successful call returns whole, in
	// bytes; a larger one is returned as the registry's capped view of it
	// (tools.Outcome.ForModel), marked truncated. Default 1 MiB.
	MaxResult int
}

func (c *Config) populate() error {
	if c.Runner == nil {
		return errors.New("mcpserver: no runner")
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.PermissionTimeout <= 0 {
		c.PermissionTimeout = chat.DefaultPermissionTimeout
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.SessionTimeout <= 0 {
		c.SessionTimeout = DefaultSessionTimeout
	}
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxSessionsPerUser <= 0 {
		c.MaxSessionsPerUser = DefaultMaxSessionsPerUser
	}
	if c.MaxCallsPerSession <= 0 {
		c.MaxCallsPerSession = DefaultMaxCallsPerSession
	}
	if c.MaxCallsPerUser <= 0 {
		c.MaxCallsPerUser = DefaultMaxCallsPerUser
	}
	if c.MaxResult <= 0 {
		c.MaxResult = DefaultMaxResult
	}
	return nil
}

// Server offers opsassist's built-in tools to MCP clients. It is safe
// for concurrent use; Shutdown ends every session.
type Server struct {
	cfg Config
	log *zap.Logger

	// base is the parent of every session's context: Shutdown cancels
	// it (with errSessionEnded), so calls and their elicitations end.
	base   context.Context
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	closed   bool
	live     map[*mcp.ServerSession]struct{} // every connected session, to close on Shutdown
	byHTTP   map[string]*session             // HTTP sessions by Mcp-Session-Id
	reserved int                             // HTTP sessions being created
	// reservedBy counts reserved by principal ID; userCalls the calls
	// running per principal ID (MaxCallsPerUser).
	reservedBy map[string]int
	userCalls  map[string]int

	wg sync.WaitGroup // session watchers and calls
}

// ErrClosed is returned by Serve once the server is shut down.
var ErrClosed = errors.New("mcpserver: server closed")

// New returns a Server over cfg.Runner.
func New(cfg Config) (*Server, error) {
	if err := cfg.populate(); err != nil {
		return nil, err
	}
	base, cancel := context.WithCancelCause(context.Background())
	return &Server{cfg: cfg, log: cfg.Logger, base: base, cancel: cancel,
		live: make(map[*mcp.ServerSession]struct{}), byHTTP: make(map[string]*session),
		reservedBy: make(map[string]int), userCalls: make(map[string]int)}, nil
}

// randomHex is n random bytes, hex-encoded.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Serve runs one MCP session over t (e.g. &mcp.StdioTransport{}) for
// who, until the client leaves, ctx ends or the server shuts down. It
// returns nil when the client closed the session, ctx's error when ctx
// ended it, ErrClosed after Shutdown.
func (s *Server) Serve(ctx context.Context, t mcp.Transport, who chat.Principal) error {
	st := newSession(s.base, who, s.cfg.MaxCallsPerSession)
	defer st.end()
	srv := s.newMCPServer(func(*mcp.ServerSession) *session { return st })
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcpserver: connecting: %w", err)
	}
	if !s.track(ss) {
		ss.Close()
		return ErrClosed
	}
	defer s.untrack(ss)
	stop := context.AfterFunc(ctx, func() { st.end(); ss.Close() })
	defer stop()
	err = ss.Wait()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case s.isClosed():
		return ErrClosed
	case err != nil && !errors.Is(err, mcp.ErrConnectionClosed):
		return fmt.Errorf("mcpserver: session: %w", err)
	}
	return nil
}

// track adds a connected session to those Shutdown closes; false once
// the server is closed.
func (s *Server) track(ss *mcp.ServerSession) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.live[ss] = struct{}{}
	return true
}

func (s *Server) untrack(ss *mcp.ServerSession) {
	s.mu.Lock()
	delete(s.live, ss)
	s.mu.Unlock()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Shutdown refuses new sessions, cancels the calls in flight (a call
// waiting for its elicitation's answer is refused, decided_by
// "disconnect", as a chat's is when the server stops), closes every
// session at once — HTTP streams end, so the HTTP server's own shutdown
// does not wait for them — and waits, until ctx ends, for the sessions
// to close and the calls to be recorded. A tool that ignores
// cancellation does not hold it past ctx. It is idempotent.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	live := make([]*mcp.ServerSession, 0, len(s.live))
	for ss := range s.live {
		live = append(live, ss)
	}
	s.mu.Unlock()
	s.cancel(errSessionEnded)
	var closing sync.WaitGroup
	for _, ss := range live {
		// Concurrently: Close waits for the session's calls to return.
		closing.Go(func() { ss.Close() })
	}
	done := make(chan struct{})
	go func() { closing.Wait(); s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("mcpserver: shutdown: %w", ctx.Err())
	}
}

// supportedVersions are the MCP protocol versions offered: those before
// 2026-07-28, whose clients answer server-initiated elicitation
// requests (the newer protocol replaces them with multi-round-trip
// results, which this server does not implement).
func supportedVersions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), func(v string) bool { return v >= "2026-07-28" })
}

// newMCPServer builds an SDK server offering the built-in tools; state
// finds the session state of the session a call comes in on (nil: the
// call is refused).
func (s *Server) newMCPServer(state func(*mcp.ServerSession) *session) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "opsassist", Title: "opsassist", Version: s.cfg.Version}, &mcp.ServerOptions{
		Instructions:              instructions,
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		SupportedProtocolVersions: supportedVersions(),
	})
	for _, spec := range offered(s.cfg.Runner.Specs()) {
		srv.AddTool(toolOf(spec), s.handle(spec.Name, state))
	}
	return srv
}

// instructions tell an MCP client's model what the server is.
const instructions = "opsassist: the ops assistant of one machine. Its tools monitor the system, run whitelisted commands, search local documents, offer files for download (file_upload lists a chat conversation's uploads; an MCP session has none). " +
	"Every call is checked by the server's permission policy and recorded in its audit log; a call that needs the user's confirmation is asked about through an elicitation, and refused when the client cannot be asked."
