package npltserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/access"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/tools/toolcall"
)

// ErrServerClosed is returned by Serve after Shutdown or Close.
var ErrServerClosed = errors.New("server: closed")

// Config configures a Server. Zero values take the defaults in the field
// comments.
type Config struct {
	// Chat is the chat core. Required.
	Chat *chat.Service
	// MaxClients is the most concurrent connections that may chat. With
	// tokens required, connections still waiting to authenticate are not
	// counted here but by MaxUnauthenticated. Default 200.
	MaxClients int
	// MaxUnauthenticated is the most connections waiting to send their
	// HELLO (tokens required). When that many wait, a new connection takes
	// the place of the oldest one from the address with the most
	// waiting, which is closed with server_busy. Default 64.
	MaxUnauthenticated int
	// MaxUnauthenticatedPerAddr is the most connections waiting to send
	// their HELLO from one address (IPv6: one /64). When that many wait, a
	// new connection from the address takes the place of its oldest one,
	// which is closed with server_busy. Default 8.
	MaxUnauthenticatedPerAddr int
	// IdleTimeout closes a connection that sends nothing for this long; a
	// heartbeat is sent at half of it. Default 180s.
	IdleTimeout time.Duration
	// StallTimeout drops a client that starts a frame and does not finish
	// it in time. Default 30s.
	StallTimeout time.Duration
	// UploadStallTimeout aborts an upload that receives no file data for
	// this long (ERROR upload_timeout; the connection stays): other
	// frames, PINGs and PONGs included, do not count as progress.
	// Default 60s.
	UploadStallTimeout time.Duration
	// WriteTimeout drops a client that does not read for this long.
	// Default 30s.
	WriteTimeout time.Duration
	// RDTAddr is the RDT server's address, which the HELLO reply names
	// (rdt_addr) so that "opsassist download TOKEN" finds it. Default
	// "": not named.
	RDTAddr string
	// HelloTimeout is how long a client has to authenticate when tokens
	// are required. Default 5s.
	HelloTimeout time.Duration
	// Users are who may connect: when Users.Enabled(), a client must
	// present a token in its HELLO before anything else is accepted, and
	// the connection acts for the principal the token authenticates
	// (per connection). Without tokens every client is the local
	// operator (chat.Local). Default nil: access.New(nil, AuthToken).
	Users *access.Directory
	// AuthToken is the single auth_token, for a server without Users
	// (setting both is an error):
	// its holder is the admin principal (chat.TokenPrincipal).
	AuthToken string
	// Limiter throttles wrong tokens per address; share one with the
	// HTTP server so guesses count across transports. Default: a
	// limiter of its own (authlimit.New).
	Limiter *authlimit.Limiter
	// QueueFrames bounds each connection's outgoing frame queue. Default 64.
	QueueFrames int
	// QueueRequests bounds each connection's queue of requests waiting
	// for the one in progress. Default 8.
	QueueRequests int
	// Tokens, if set, lets clients fetch files named by download tokens
	// over NPLT (FILE_REQUEST); without it FILE_REQUEST gets not_found.
	Tokens TokenStore
	// Catalog, if set, answers TOOL_LIST with the registered tools and
	// the MCP servers' states; without it TOOL_LIST gets not_found.
	Catalog toolcall.Catalog
	// Runner, if set, runs TOOL_CALL's direct calls through the
	// registry's policy, rate limits and audit log (tools.Registry);
	// without it TOOL_CALL gets not_found.
	Runner toolcall.Runner
	// Version is reported in HELLO replies.
	Version string
	// Metrics, if set, counts connections, chat turns and upload bytes
	// (metrics.Metrics). Default: none.
	Metrics Observer
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

func (c *Config) populate() error {
	if c.Chat == nil {
		return errors.New("server: Config.Chat is required")
	}
	setDefault(&c.MaxClients, 200)
	setDefault(&c.IdleTimeout, 180*time.Second)
	setDefault(&c.StallTimeout, 30*time.Second)
	setDefault(&c.WriteTimeout, 30*time.Second)
	setDefault(&c.UploadStallTimeout, 60*time.Second)
	setDefault(&c.HelloTimeout, 5*time.Second)
	setDefault(&c.MaxUnauthenticated, 64)
	setDefault(&c.MaxUnauthenticatedPerAddr, 8)
	if c.Users != nil && c.AuthToken != "" {
		return errors.New("server: set Users or AuthToken, not both (the directory holds the auth_token's admin)")
	}
	if c.Users == nil {
		d, err := access.New(nil, c.AuthToken)
		if err != nil {
			return fmt.Errorf("server: %w", err)
		}
		c.Users = d
	}
	if c.Limiter == nil {
		c.Limiter = authlimit.New(0, 0)
	}
	setDefault(&c.QueueFrames, 64)
	setDefault(&c.QueueRequests, 8)
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.Metrics == nil {
		c.Metrics = nopObserver{}
	}
	return nil
}

// Observer is told what the server does, for metrics. The transport
// argument is always "nplt".
type Observer interface {
	ConnOpened(transport string)
	ConnClosed(transport string)
	ChatStarted(transport string)
	UploadReceived(transport string, bytes int64)
}

// transportName labels this server's reports to the Observer.
const transportName = api.TransportNPLT

// nopObserver discards reports.
type nopObserver struct{}

func (nopObserver) ConnOpened(string)            {}
func (nopObserver) ConnClosed(string)            {}
func (nopObserver) ChatStarted(string)           {}
func (nopObserver) UploadReceived(string, int64) {}

func setDefault[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// abortGrace is how long Shutdown waits for aborted connections.
const abortGrace = 2 * time.Second

// maxRefusing bounds the goroutines telling clients the server is full.
const maxRefusing = 16

// Server serves NPLT connections.
type Server struct {
	cfg Config
	log *zap.Logger

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
	closing   bool
	quit      chan struct{}         // closed when shutdown starts
	refusing  chan struct{}         // bounds concurrent busy refusals
	waiting   waitingHello          // connections yet to authenticate (pending.go)
	chatting  int                   // connections counted toward MaxClients
	refused   map[net.Conn]struct{} // connections being told they are refused
	wg        sync.WaitGroup
	nextID    atomic.Uint64
}

// New returns a Server.
func New(cfg Config) (*Server, error) {
	if err := cfg.populate(); err != nil {
		return nil, err
	}
	return &Server{
		waiting:   waitingHello{byAddr: make(map[netip.Prefix]int)},
		cfg:       cfg,
		log:       cfg.Logger,
		listeners: make(map[net.Listener]struct{}),
		conns:     make(map[*conn]struct{}),
		refused:   make(map[net.Conn]struct{}),
		quit:      make(chan struct{}),
		refusing:  make(chan struct{}, maxRefusing),
	}, nil
}

// Serve accepts connections on ln until Shutdown or Close, then returns
// ErrServerClosed. It closes ln.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		ln.Close()
	}()
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return fmt.Errorf("server: accept: %w", err)
			}
			// Out of file descriptors and the like: wait and retry.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed; retrying", zap.Error(err), zap.Duration("backoff", backoff))
			select {
			case <-time.After(backoff):
			case <-s.quit:
			}
			continue
		}
		backoff = 0
		s.accept(nc)
	}
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// accept registers a connection and starts it, or refuses it when the
// server is full or closing.
func (s *Server) accept(nc net.Conn) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		nc.Close()
		return
	}
	addr := authlimit.AddrOf(nc.RemoteAddr().String())
	var key netip.Prefix
	if s.authRequired() {
		// Not yet authenticated: counted apart from max_clients.
		key = authlimit.Key(addr)
		if code, msg := s.admitUnauthenticated(addr, key); code != "" {
			s.mu.Unlock()
			s.refuseAsync(nc, code, msg)
			return
		}
	} else if s.chatting >= s.cfg.MaxClients {
		s.mu.Unlock()
		s.log.Warn("refusing connection: server busy", zap.Stringer("remote", nc.RemoteAddr()), zap.Int("max_clients", s.cfg.MaxClients))
		s.refuseAsync(nc, api.CodeServerBusy, "server busy: too many clients")
		return
	}
	c := newConn(s, nc, s.nextID.Add(1))
	if s.authRequired() {
		c.waitKey, c.waiting = key, true
	} else {
		s.startChatting(c)
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	s.cfg.Metrics.ConnOpened(transportName)
	go func() {
		defer s.wg.Done()
		defer s.cfg.Metrics.ConnClosed(transportName)
		c.serve()
		s.mu.Lock()
		delete(s.conns, c)
		s.released(c)
		s.mu.Unlock()
	}()
}

// authRequired reports whether clients must present a token.
func (s *Server) authRequired() bool { return s.cfg.Users.Enabled() }

// Addrs returns the addresses of the listeners being served.
func (s *Server) Addrs() []net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []net.Addr
	for ln := range s.listeners {
		out = append(out, ln.Addr())
	}
	return out
}

// ConnCount returns the number of open connections.
func (s *Server) ConnCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Shutdown stops accepting, lets every connection finish the reply it is
// producing, then closes the connections. If ctx ends first, replies in
// flight are cancelled and the connections closed at once. It returns
// when all connection goroutines have exited. Pending permission
// requests and questions are withdrawn (chat.Service.WithdrawRequests),
// so a turn waiting for a person does not hold the shutdown.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		close(s.quit)
	}
	for ln := range s.listeners {
		ln.Close()
	}
	for c := range s.conns {
		c.drain()
	}
	for nc := range s.refused {
		nc.Close() // being refused anyway
	}
	s.mu.Unlock()
	// A turn waiting for a person would hold its connection's drain to
	// ctx's end: its requests are withdrawn (the calls do not run).
	s.cfg.Chat.WithdrawRequests()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for c := range s.conns {
			c.abort()
		}
		s.mu.Unlock()
		// Aborted connections exit at once unless an agent ignores its
		// context; do not let one hold the process forever.
		select {
		case <-done:
		case <-time.After(abortGrace):
			s.log.Warn("connections still busy after abort")
		}
		return fmt.Errorf("server: shutdown: %w", ctx.Err())
	}
}

// Close closes all listeners and connections at once.
func (s *Server) Close() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
