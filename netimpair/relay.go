package netimpair

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
)

// ErrClosed is returned for operations on a closed relay.
var ErrClosed = errors.New("netimpair: relay closed")

// Relay is a running impairment relay. It listens on one UDP socket,
// forwards each client's packets to the upstream server from a socket of
// that client's own, and sends the server's answers back to the client,
// impairing both directions as configured.
type Relay struct {
	cfg      Config
	log      *zap.Logger
	conn     *net.UDPConn
	upstream *net.UDPAddr
	epoch    time.Time
	clock    func() time.Duration // since epoch
	pool     packetPool
	fwd, rev *direction

	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup

	mu       sync.Mutex
	sessions map[netip.AddrPort]*session
	closed   bool
	clients  atomic.Uint64
}

// session is one client address and its upstream socket.
type session struct {
	client netip.AddrPort
	conn   *net.UDPConn
	last   atomic.Int64 // time of the last packet, ns since the relay's epoch
}

// New starts a relay: it binds cfg.Listen, and returns once the relay
// accepts packets. Close stops it.
func New(cfg Config) (*Relay, error) { return newRelayClock(cfg, nil) }

// newRelayClock is New with the relay's clock: now returns the time since the
// relay's epoch (nil: the wall clock). Tests pass a clock they move.
func newRelayClock(cfg Config, now func() time.Duration) (*Relay, error) {
	cfg, err := cfg.populated()
	if err != nil {
		return nil, err
	}
	up, err := net.ResolveUDPAddr("udp", cfg.Upstream)
	if err != nil {
		return nil, fmt.Errorf("netimpair: resolving upstream: %w", err)
	}
	la, err := net.ResolveUDPAddr("udp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("netimpair: resolving listen address: %w", err)
	}
	conn, err := net.ListenUDP("udp", la)
	if err != nil {
		return nil, fmt.Errorf("netimpair: %w", err)
	}
	setBuffers(conn, cfg.SocketBuffer)
	r := &Relay{
		cfg:      cfg,
		log:      cfg.Logger,
		conn:     conn,
		upstream: up,
		epoch:    time.Now(),
		done:     make(chan struct{}),
		sessions: make(map[netip.AddrPort]*session),
		clock:    now,
	}
	if r.clock == nil {
		r.clock = func() time.Duration { return time.Since(r.epoch) }
	}
	r.fwd = newDirection(newShaper(cfg.Forward, cfg.Seed, 1), r.now, r.sendUpstream, &r.pool, r.log.With(zap.String("dir", "forward")))
	r.rev = newDirection(newShaper(cfg.Reverse, cfg.Seed, 2), r.now, r.sendClient, &r.pool, r.log.With(zap.String("dir", "reverse")))
	r.wg.Add(3)
	go func() { defer r.wg.Done(); r.fwd.run(r.done) }()
	go func() { defer r.wg.Done(); r.rev.run(r.done) }()
	go func() { defer r.wg.Done(); r.readClients() }()
	r.log.Info("relay started", zap.Stringer("listen", conn.LocalAddr()), zap.String("upstream", cfg.Upstream))
	return r, nil
}

// Addr is the address clients send to.
func (r *Relay) Addr() net.Addr { return r.conn.LocalAddr() }

// Stats returns the relay's counters. It is safe to call at any time,
// also after Close.
func (r *Relay) Stats() Stats {
	r.mu.Lock()
	active := len(r.sessions)
	r.mu.Unlock()
	return Stats{
		Forward:       r.fwd.c.snapshot(),
		Reverse:       r.rev.c.snapshot(),
		Clients:       r.clients.Load(),
		ActiveClients: active,
	}
}

// Close stops the relay: it closes every socket, drops packets not yet
// released, and returns once all its goroutines have exited. Close is
// idempotent.
func (r *Relay) Close() error {
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		sessions := r.sessions
		r.sessions = make(map[netip.AddrPort]*session)
		r.mu.Unlock()
		close(r.done)
		r.closeErr = r.conn.Close()
		for _, s := range sessions {
			_ = s.conn.Close() // its reader exits on the error
		}
		r.wg.Wait()
		r.log.Info("relay closed",
			zap.Stringer("forward", r.fwd.c.snapshot()),
			zap.Stringer("reverse", r.rev.c.snapshot()))
	})
	return r.closeErr
}

func (r *Relay) now() time.Duration { return r.clock() }

// readClients reads the listening socket and feeds the forward direction.
func (r *Relay) readClients() {
	buf := make([]byte, MaxDatagram)
	for {
		n, addr, err := r.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			r.log.Warn("read from clients", zap.Error(err))
			continue
		}
		s, err := r.session(addr)
		if err != nil {
			if errors.Is(err, ErrClosed) {
				return
			}
			r.log.Warn("opening upstream socket", zap.Error(err))
			continue
		}
		s.last.Store(int64(r.now()))
		select {
		case r.fwd.in <- r.pool.get(buf[:n], s):
		case <-r.done:
			return
		}
	}
}

// session returns the session of client, creating it and its upstream
// reader on first use.
func (r *Relay) session(client netip.AddrPort) (*session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if s := r.sessions[client]; s != nil {
		return s, nil
	}
	conn, err := net.DialUDP("udp", nil, r.upstream)
	if err != nil {
		return nil, err
	}
	setBuffers(conn, r.cfg.SocketBuffer)
	s := &session{client: client, conn: conn}
	s.last.Store(int64(r.now()))
	r.sessions[client] = s
	r.clients.Add(1)
	r.log.Debug("client added", zap.Stringer("client", client), zap.Stringer("via", conn.LocalAddr()))
	r.wg.Add(1)
	go func() { defer r.wg.Done(); r.readUpstream(s) }()
	return s, nil
}

// readUpstream reads one client's upstream socket and feeds the reverse
// direction. It closes the session after IdleTimeout without traffic.
func (r *Relay) readUpstream(s *session) {
	buf := make([]byte, MaxDatagram)
	idle := r.cfg.IdleTimeout
	_ = s.conn.SetReadDeadline(r.epoch.Add(time.Duration(s.last.Load()) + idle))
	for {
		n, err := s.conn.Read(buf)
		if err != nil {
			var ne net.Error
			switch {
			case errors.As(err, &ne) && ne.Timeout():
				last := time.Duration(s.last.Load())
				if r.now()-last >= idle {
					r.expire(s)
					return
				}
				_ = s.conn.SetReadDeadline(r.epoch.Add(last + idle))
				continue
			case errors.Is(err, syscall.ECONNREFUSED):
				continue // nothing listens upstream yet
			case errors.Is(err, net.ErrClosed):
				return
			default:
				r.log.Warn("read from upstream", zap.Stringer("client", s.client), zap.Error(err))
				r.expire(s)
				return
			}
		}
		s.last.Store(int64(r.now()))
		select {
		case r.rev.in <- r.pool.get(buf[:n], s):
		case <-r.done:
			return
		}
	}
}

// expire forgets s and closes its socket.
func (r *Relay) expire(s *session) {
	r.mu.Lock()
	if r.sessions[s.client] == s {
		delete(r.sessions, s.client)
	}
	r.mu.Unlock()
	_ = s.conn.Close()
	r.log.Debug("client expired", zap.Stringer("client", s.client))
}

func (r *Relay) sendUpstream(p *packet) error {
	_, err := p.dst.conn.Write(p.b)
	return err
}

func (r *Relay) sendClient(p *packet) error {
	_, err := r.conn.WriteToUDPAddrPort(p.b, p.dst.client)
	return err
}

// setBuffers asks for size-byte kernel buffers; the kernel may grant
// less, which only costs burst tolerance, so errors are ignored.
func setBuffers(c *net.UDPConn, size int) {
	if size <= 0 {
		return
	}
	_ = c.SetReadBuffer(size)
	_ = c.SetWriteBuffer(size)
}
