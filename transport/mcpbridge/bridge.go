package mcpbridge

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// ErrUnreachable is matched (errors.Is) when the daemon's MCP endpoint
// cannot be reached or its session broke.
var ErrUnreachable = errors.New("mcpbridge: opsassist daemon unreachable")

// defaultConnectTimeout is Config.ConnectTimeout's default.
const defaultConnectTimeout = 10 * time.Second

// statelessEra is the first MCP protocol version in which a server may
// not send requests of its own (elicitation travels inside tool results
// instead, SEP-2322). The bridge speaks the versions before it on both
// sides, so that the daemon's confirmation is an elicitation request the
// bridge can hand to the local client while the call is in flight.
const statelessEra = "2026-07-28"

// Config is what a Bridge needs.
type Config struct {
	// URL is the daemon's MCP endpoint, e.g. http://127.0.0.1:8080/mcp.
	// Required.
	URL string
	// Token is sent to the daemon as a bearer token. Default empty: none
	// (a daemon without tokens, on loopback). Never logged.
	Token string
	// TLS configures an https URL. Default nil: the system's roots.
	TLS *tls.Config
	// Version is the version the bridge reports to both sides. Default
	// empty: "dev".
	Version string
	// ConnectTimeout bounds connecting to the daemon and listing its
	// tools. Default 10s.
	ConnectTimeout time.Duration
	// Logger receives the bridge's logs. Default zap.NewNop().
	Logger *zap.Logger
}

// Bridge serves one local MCP session with a daemon's tools.
type Bridge struct {
	cfg  Config
	log  *zap.Logger
	srv  *mcp.Server
	http *http.Client

	wg sync.WaitGroup // tool list syncs started by list_changed

	// connMu makes one connection or tool listing at a time; it is
	// never taken by a handler the SDK runs for the daemon session.
	connMu  sync.Mutex
	offered []string // the tool names added to srv; under connMu

	mu    sync.Mutex              // the fields below; held only briefly
	local *mcp.ServerSession      // the local client's session, once initialized
	caps  *mcp.ClientCapabilities // what the bridge declares to the daemon
	up    *mcp.ClientSession      // the daemon session; nil until connected or after it broke
	fatal error                   // the daemon could not be reached at initialize
	ctx   context.Context         // Serve's context, for list syncs
	done  bool                    // Serve is returning: no more list syncs
}

// New returns a Bridge to the daemon at cfg.URL. It connects nothing:
// Serve does, once the local client has said who it is.
func New(cfg Config) (*Bridge, error) {
	if cfg.URL == "" {
		return nil, errors.New("mcpbridge: no daemon URL")
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = defaultConnectTimeout
	}
	b := &Bridge{cfg: cfg, log: cfg.Logger}
	// No client timeout: a call's answer streams for as long as the call
	// runs; each call's context bounds it.
	b.http = &http.Client{Transport: &bearer{token: cfg.Token, base: &http.Transport{TLSClientConfig: cfg.TLS, Proxy: nil}}}
	b.srv = mcp.NewServer(&mcp.Implementation{Name: "opsassist", Title: "opsassist (bridge to the running daemon)", Version: cfg.Version},
		&mcp.ServerOptions{HasTools: true, SupportedProtocolVersions: handshakeVersions()})
	b.srv.AddReceivingMiddleware(b.onInitialize)
	return b, nil
}

// handshakeVersions are the SDK's protocol versions before statelessEra,
// newest first.
func handshakeVersions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), func(v string) bool { return v >= statelessEra })
}

// Serve runs one local MCP session over t until the client leaves (nil)
// or ctx ends (ctx.Err()). It returns an error wrapping ErrUnreachable if
// the daemon could not be reached when the client initialized.
func (b *Bridge) Serve(ctx context.Context, t mcp.Transport) error {
	b.mu.Lock()
	b.ctx = ctx
	b.mu.Unlock()
	defer func() {
		b.closeUpstream()
		b.mu.Lock()
		b.done = true
		b.mu.Unlock()
		b.wg.Wait()
	}()
	ss, err := b.srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcpbridge: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-done
		return ctx.Err()
	case <-done:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fatal
}

// onInitialize connects to the daemon once the local client's initialize
// request has been accepted, declaring elicitation to the daemon only if
// the client declared it, and adds the daemon's tools before the client
// gets its answer (so its first tools/list sees them). A daemon that
// cannot be reached fails the initialize request.
func (b *Bridge) onInitialize(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "initialize" || err != nil {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		params, _ := req.GetParams().(*mcp.InitializeParams)
		caps := &mcp.ClientCapabilities{}
		if params != nil && params.Capabilities != nil && params.Capabilities.Elicitation != nil {
			e := *params.Capabilities.Elicitation
			caps.Elicitation = &e
		}
		b.mu.Lock()
		b.local, b.caps = ss, caps
		b.mu.Unlock()
		if _, err := b.upstream(ctx); err != nil {
			b.log.Error("cannot reach the opsassist daemon; is it running, and is OPSASSIST_TOKEN right?", zap.String("url", b.cfg.URL), zap.Error(err))
			b.mu.Lock()
			b.fatal = err
			b.mu.Unlock()
			return nil, err
		}
		return res, nil
	}
}

// closeUpstream ends the daemon session, if any.
func (b *Bridge) closeUpstream() {
	b.mu.Lock()
	up := b.up
	b.up = nil
	b.mu.Unlock()
	if up != nil {
		up.Close()
	}
}

// bearer adds the daemon's token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

// RoundTrip sends r with an Authorization header when a token is set.
func (t *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+t.token)
	}
	return t.base.RoundTrip(r)
}
