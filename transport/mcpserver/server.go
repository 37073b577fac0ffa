package mcpserver

import (
	"context"
	"errors"
	"net/http"

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
}

// Config is what a Server needs.
type Config struct {
	Runner  Runner
	Version string
	Logger  *zap.Logger
}

// Server offers opsassist's built-in tools to MCP clients.
type Server struct {
	cfg Config
}

// ErrNotImplemented: the server is not built yet (issue 14 brings it).
var ErrNotImplemented = errors.New("mcpserver: not implemented")

// New returns a Server over cfg.Runner.
func New(cfg Config) (*Server, error) {
	if cfg.Runner == nil {
		return nil, errors.New("mcpserver: no runner")
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Server{cfg: cfg}, nil
}

// Serve runs one MCP session over t (e.g. &mcp.StdioTransport{}) for
// who, until the client leaves or ctx ends.
func (s *Server) Serve(ctx context.Context, t mcp.Transport, who chat.Principal) error {
	return ErrNotImplemented
}

// Handler serves streamable HTTP MCP; principal says who an
// authenticated request acts for (the HTTP server authenticates before
// the handler runs).
func (s *Server) Handler(principal func(*http.Request) chat.Principal) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, ErrNotImplemented.Error(), http.StatusNotImplemented)
	})
}
