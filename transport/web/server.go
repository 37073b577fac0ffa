package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"go.uber.org/zap"

	"opsassist/access"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/storage/tokens"
	"opsassist/tools"
)

// ErrNoToken is returned by New for a public server without an access
// token.
var ErrNoToken = errors.New("web: a listener that is not on loopback needs an access token")

// Defaults of Config fields.
const (
	DefaultMaxJSONBody       = 1 << 20
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultStallTimeout      = 30 * time.Second
	DefaultSessions          = 1024
	DefaultMaxLogins         = 1024
	DefaultKeepAlive         = 15 * time.Second
	DefaultMaxConns          = 256
	DefaultMaxConnsPerAddr   = 32
)

// TokenStore redeems download tokens (tokens.Store).
type TokenStore interface {
	Redeem(c tokens.Claim, now time.Time) (tokens.Grant, error)
}

var _ TokenStore = (*tokens.Store)(nil)

// Observer is told what the server does, for metrics (metrics.Metrics).
// The transport argument is always "http".
type Observer interface {
	ConnOpened(transport string)
	ConnClosed(transport string)
	ChatStarted(transport string)
	UploadReceived(transport string, bytes int64)
}

// Config configures a Server. Zero values take the defaults in the field
// comments.
type Config struct {
	// Chat is the chat core. Required.
	Chat *chat.Service
	// Tokens finds the download tokens file_download issued. Required.
	Tokens TokenStore
	// System is the sys_monitor tool behind GET /api/system. Default:
	// that endpoint answers 404.
	System tools.Tool
	// Metrics serves GET /metrics. Default: 404.
	Metrics http.Handler
	// Observer counts connections, chats and upload bytes. Default none.
	Observer Observer
	// Components reports the state of the daemon's parts for GET
	// /api/health (keys nplt, rdt, index, llm). Default: none reported.
	Components func() map[string]string
	// Public means the listener is reachable from other machines. New
	// refuses a public server without a token.
	Public bool
	// Users are who may use the server: when Users.Enabled(), every
	// request but the login form needs a token, on loopback too, as
	// "Authorization: Bearer TOKEN" or the cookie set by the login form,
	// and acts for the principal the token authenticates (a login
	// session keeps it). Without tokens (loopback only) every request is
	// the local operator. Default nil: access.New(nil, AuthToken).
	Users *access.Directory
	// AuthToken is the single auth_token, for a server without Users
	// (setting both is an error):
	// its holder is the admin principal (chat.TokenPrincipal). Never
	// logged.
	AuthToken string
	// Catalog lists the tools and MCP servers for GET /api/tools.
	// Default nil: that endpoint answers 404.
	Catalog ToolCatalog
	// Runner runs direct calls, POST /api/tools/{name}, through the
	// tool registry. Default nil: that endpoint answers 404.
	Runner ToolRunner
	// MCP, if set, builds the handler of /mcp from the principal of a
	// request (the daemon passes mcpserver.Server.Handler): streamable
	// HTTP MCP, served for POST, GET and DELETE behind the same Host,
	// origin and token checks as /api, the token as a bearer header only
	// (mcp.go). Default nil: /mcp answers 404.
	MCP func(principal func(*http.Request) chat.Principal) http.Handler
	// Audit is the audit log GET /api/audit reads (package tools/audit).
	// Default nil: that endpoint answers 404.
	Audit AuditLog
	// Limiter throttles wrong tokens per address; share the NPLT
	// server's so guesses count across transports. Default: a limiter
	// of its own (authlimit.New).
	Limiter *authlimit.Limiter
	// MaxLogins bounds the live login sessions; at the cap a new login
	// ends the one closest to expiring. Default 1024.
	MaxLogins int
	// Version is reported by GET /api/health.
	Version string
	// MaxJSONBody bounds JSON request bodies. Default 1 MiB.
	MaxJSONBody int64
	// SearchBytes bounds the message text one GET /api/sessions?q=
	// reads. Default chat.MaxSearchBytes.
	SearchBytes int64
	// ReadHeaderTimeout bounds reading request headers. Default 10s.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes idle keep-alive connections. Default 120s.
	IdleTimeout time.Duration
	// StallTimeout is how long one read of a request body or one write
	// (an SSE event, a download chunk) may block before the client is
	// dropped. There is no timeout on a whole request or response, so
	// long streams, large uploads and large downloads run to the end as
	// long as they move. Default 30s.
	StallTimeout time.Duration
	// MaxConns bounds the open HTTP connections; one more takes the place
	// of one doing nothing, or if all are serving a request is closed at
	// once, unanswered (connlimit.go). Default 256.
	MaxConns int
	// MaxConnsPerAddr bounds the open HTTP connections from one client
	// address (IPv6: one /64), with the same rule. Default 32.
	MaxConnsPerAddr int
	// KeepAlive is how often an idle chat stream gets an SSE comment, so
	// proxies keep it open while a tool runs. Default 15s.
	KeepAlive time.Duration
	// Sessions bounds the cached sessions. Default 1024.
	Sessions int
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// Now returns the current time. Default time.Now.
	Now func() time.Time
}

func (c *Config) populate() error {
	if c.Chat == nil || c.Tokens == nil {
		return errors.New("web: Config.Chat and Config.Tokens are required")
	}
	if c.Users != nil && c.AuthToken != "" {
		return errors.New("web: set Users or AuthToken, not both (the directory holds the auth_token's admin)")
	}
	if c.Users == nil {
		d, err := access.New(nil, c.AuthToken)
		if err != nil {
			return fmt.Errorf("web: %w", err)
		}
		c.Users = d
	}
	if c.Public && !c.Users.Enabled() {
		return ErrNoToken
	}
	if c.MaxJSONBody <= 0 {
		c.MaxJSONBody = DefaultMaxJSONBody
	}
	if c.ReadHeaderTimeout <= 0 {
		c.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.StallTimeout <= 0 {
		c.StallTimeout = DefaultStallTimeout
	}
	if c.Sessions <= 0 {
		c.Sessions = DefaultSessions
	}
	if c.MaxLogins <= 0 {
		c.MaxLogins = DefaultMaxLogins
	}
	if c.Limiter == nil {
		c.Limiter = authlimit.New(0, 0)
	}
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.MaxConnsPerAddr <= 0 {
		c.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = DefaultKeepAlive
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	if c.Components == nil {
		c.Components = func() map[string]string { return map[string]string{} }
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return nil
}

// transportName labels this server's reports to the Observer.
const transportName = api.TransportHTTP

type nopObserver struct{}

func (nopObserver) ConnOpened(string)            {}
func (nopObserver) ConnClosed(string)            {}
func (nopObserver) ChatStarted(string)           {}
func (nopObserver) UploadReceived(string, int64) {}

// Server is the HTTP API and web page.
type Server struct {
	cfg      Config
	log      *zap.Logger
	started  time.Time
	sessions *sessionCache
	logins   *logins // live login sessions (logins.go)
	handler  http.Handler
	http     *http.Server
	conns    *connLimit     // open connections per address and in all
	detached *detachedTurns // chat turns running on after their client left

	// base is cancelled when Shutdown gives up waiting, so turns in
	// flight stop.
	base   context.Context
	cancel context.CancelFunc
}

// New returns a Server.
func New(cfg Config) (*Server, error) {
	if err := cfg.populate(); err != nil {
		return nil, err
	}
	base, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, log: cfg.Logger, started: cfg.Now(), sessions: newSessionCache(cfg.Chat, cfg.Sessions),
		logins: newLogins(cfg.MaxLogins, cookieMaxAge*time.Second),
		base:   base, cancel: cancel, conns: newConnLimit(cfg.MaxConns, cfg.MaxConnsPerAddr, cfg.Logger),
		detached: newDetachedTurns(MaxDetachedPerPrincipal, MaxDetached)}
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errorf(http.StatusForbidden, api.CodeForbidden, "cross-origin request refused"))
	}))
	s.handler = s.guard(s.checkHost(csrf.Handler(s.authenticate(s.routes()))))
	s.http = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnState:         s.connState,
		ErrorLog:          zap.NewStdLog(cfg.Logger.Named("http")),
	}
	return s, nil
}

// routes registers every endpoint.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", s.handleHealth)
	mux.HandleFunc("GET /api/system", s.handleSystem)
	mux.HandleFunc("GET /api/models", s.handleModels)
	mux.HandleFunc("POST /api/chat", s.handleChat)
	mux.HandleFunc("POST /api/files", s.handleUpload)
	mux.HandleFunc("GET /api/files", s.handleListFiles)
	mux.HandleFunc("GET /api/files/download/{token}", s.handleDownload)
	mux.HandleFunc("GET /api/sessions", s.handleListSessions)
	mux.HandleFunc("POST /api/sessions", s.handleNewSession)
	mux.HandleFunc("POST /api/sessions/delete", s.handleBulkDelete)
	mux.HandleFunc("GET /api/sessions/{id}", s.handleGetSession)
	mux.HandleFunc("DELETE /api/sessions/{id}", s.handleDeleteSession)
	mux.HandleFunc("PATCH /api/sessions/{id}", s.handleRenameSession)
	mux.HandleFunc("GET /api/sessions/{id}/history", s.handleHistory)
	mux.HandleFunc("GET /api/sessions/{id}/export", s.handleExport)
	mux.HandleFunc("POST /api/sessions/{id}/clear", s.handleClear)
	mux.HandleFunc("POST /api/sessions/{id}/model", s.handleSetModel)
	mux.HandleFunc("POST /api/sessions/{id}/permissions/{request_id}", s.handleAnswerPermission)
	mux.HandleFunc("GET /api/sessions/{id}/permissions", s.handleListGrants)
	mux.HandleFunc("POST /api/sessions/{id}/questions/{request_id}", s.handleAnswerQuestion)
	mux.HandleFunc("DELETE /api/sessions/{id}/permissions/{grant}", s.handleRevokeGrant)
	mux.HandleFunc("POST /api/sessions/{id}/cancel", s.handleCancel)
	mux.HandleFunc("GET /api/sessions/{id}/pending", s.handlePending)
	mux.HandleFunc("GET /api/audit", s.handleAudit)
	mux.HandleFunc("GET /api/tools", s.handleTools)
	mux.HandleFunc("POST /api/tools/{name}", s.handleDirectCall)
	if s.cfg.MCP != nil {
		h := s.mcpHandler(s.cfg.MCP(s.principal))
		for _, m := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			mux.Handle(m+" /mcp", h)
		}
	}
	mux.HandleFunc("POST /api/login", s.handleLogin)
	mux.HandleFunc("POST /api/logout", s.handleLogout)
	mux.HandleFunc("GET /login", s.handleLoginPage)
	if s.cfg.Metrics != nil {
		mux.Handle("GET /metrics", s.cfg.Metrics)
	}
	mux.Handle("GET /{$}", s.page())
	mux.Handle("GET /static/", s.assets())
	mux.HandleFunc("GET /favicon.ico", s.handleFavicon)
	return mux
}

// Handler returns the server's handler, for tests and embedding.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves on ln until Shutdown, then returns http.ErrServerClosed.
func (s *Server) Serve(ln net.Listener) error {
	s.log.Info("http listening", zap.Stringer("addr", ln.Addr()), zap.Bool("public", s.cfg.Public))
	return s.http.Serve(ln)
}

// Shutdown stops accepting and waits for requests in flight (chat
// streams, downloads) and for detached chat turns (detached.go) until
// ctx ends; then it cancels the remaining turns, closes every connection
// and waits for the turns to end. Permission requests and questions are
// withdrawn first (chat.Service.WithdrawRequests): a turn waiting for a
// person ends at once instead of holding the shutdown to its deadline.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cfg.Chat.WithdrawRequests()
	err := s.http.Shutdown(ctx)
	if err == nil {
		err = s.detached.close(ctx)
	}
	s.cancel()
	if err != nil {
		if cerr := s.http.Close(); cerr != nil {
			s.log.Warn("closing http connections failed", zap.Error(cerr))
		}
		// Cancelled, detached turns end promptly; one stuck in something
		// that ignores cancellation is not waited for past a short grace.
		grace, stop := context.WithTimeout(context.Background(), detachedGrace)
		s.detached.close(grace)
		stop()
		return fmt.Errorf("web: shutdown: %w", err)
	}
	return nil
}

// connState enforces the connection caps (connlimit.go) and reports
// connections to the Observer.
func (s *Server) connState(c net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		s.cfg.Observer.ConnOpened(transportName)
		s.conns.admit(c)
	case http.StateActive, http.StateIdle:
		s.conns.state(c, st)
	case http.StateClosed, http.StateHijacked:
		s.conns.release(c)
		s.cfg.Observer.ConnClosed(transportName)
	}
}
