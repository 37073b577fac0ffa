package rdtserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/rdt"
	"opsassist/storage/tokens"
)

// TokenStore redeems download tokens; *tokens.Store implements it.
type TokenStore interface {
	Redeem(c tokens.Claim, now time.Time) (tokens.Grant, error)
}

var _ TokenStore = (*tokens.Store)(nil)

// ServerConfig configures a Server. The zero value of each optional
// field means the default in its comment.
type ServerConfig struct {
	// Tokens redeems download tokens. Required.
	Tokens TokenStore
	// Logger receives logs; every transfer's stats are logged at its
	// end. Default: discard.
	Logger *zap.Logger
	// MaxTransfers bounds concurrent transfers. Default 64.
	MaxTransfers int
	// MaxPerAddr bounds concurrent transfers per client IP. Default 8.
	MaxPerAddr int
	// RateLimit caps the server's total send rate in bytes per second,
	// shared equally by the transfers in progress. Default 0: no cap.
	RateLimit int64
	// MaxPayload is the largest DATA payload the server sends, at most
	// rdt.MaxPayload (1452); clients may ask for less. Default 1452.
	MaxPayload int
	// IdleTimeout ends a transfer whose client sent nothing for this long.
	// Default 10s.
	IdleTimeout time.Duration
	// OnTransfer, if set, receives each finished transfer's stats, from
	// the transfer's goroutine, once the server has released the transfer.
	OnTransfer func(TransferStats)
	// Now returns the time for token expiry and cookies. Default
	// time.Now.
	Now func() time.Time
	// NoProbe keeps DATA at the size the client asked for (at most
	// MaxPayload): no path MTU probing, even for clients that send CAPS.
	// Default false: probe where the platform can set the don't-fragment
	// bit (Linux), up to rdt.MaxDatagramSize.
	NoProbe bool
	// MaxDatagram caps the datagrams path MTU probing may reach, in
	// [rdt.DataOverhead+rdt.MinPayload, rdt.MaxDatagramSize]: for a path known to be
	// narrower than the interface says (an emulated WAN on loopback, a
	// tunnel). Default rdt.MaxDatagramSize.
	MaxDatagram int
	// Socket turns off fast paths of the UDP socket (batched sends, GSO)
	// for tests and misbehaving kernels. Default: every fast path the
	// kernel offers. The server never asks for GRO: it reads only ACKs.
	Socket rdt.SocketOptions
}

func (c *ServerConfig) populate() error {
	if c.Tokens == nil {
		return fmt.Errorf("%w: Tokens is required", ErrBadConfig)
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.MaxTransfers <= 0 {
		c.MaxTransfers = 64
	}
	if c.MaxPerAddr <= 0 {
		c.MaxPerAddr = 8
	}
	if c.MaxPayload == 0 {
		c.MaxPayload = rdt.MaxPayload
	}
	if c.MaxPayload < rdt.MinPayload || c.MaxPayload > rdt.MaxPayload {
		return fmt.Errorf("%w: rdt.MaxPayload %d not in [%d, %d]", ErrBadConfig, c.MaxPayload, rdt.MinPayload, rdt.MaxPayload)
	}
	if c.MaxDatagram == 0 {
		c.MaxDatagram = rdt.MaxDatagramSize
	}
	if c.MaxDatagram < rdt.DataOverhead+rdt.MinPayload || c.MaxDatagram > rdt.MaxDatagramSize {
		return fmt.Errorf("%w: MaxDatagram %d not in [%d, %d]", ErrBadConfig, c.MaxDatagram, rdt.DataOverhead+rdt.MinPayload, rdt.MaxDatagramSize)
	}
	if c.RateLimit < 0 {
		return fmt.Errorf("%w: negative RateLimit", ErrBadConfig)
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 10 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return nil
}

// Server serves files over RDT on one UDP socket, one goroutine per
// transfer.
type Server struct {
	cfg     ServerConfig
	log     *zap.Logger
	cookies cookieJar

	mu        sync.Mutex
	pc        net.PacketConn
	conn      *rdt.Conn            // pc with batched sends
	probing   bool                 // the don't-fragment bit is set: path MTU probing is safe
	transfers map[uint64]*transfer // every running transfer, lingering ones too
	// slots counts the transfers holding a slot (limited by MaxTransfers),
	// perAddr the same per client IP (MaxPerAddr). A transfer gives its
	// slot back when every byte was acknowledged (retire), or at its end.
	slots   int
	perAddr map[string]int
	// lingering are the retired transfers still running, waiting only
	// for the FIN's acknowledgement and the confirmation; at most
	// MaxTransfers of them, the oldest evicted first.
	lingering map[uint64]*transfer
	// ended remembers finished connection ids for a cookie lifetime, so a
	// late or replayed REQUEST does not start the transfer again.
	ended    map[uint64]time.Time
	closing  bool
	quit     chan struct{} // closed to abort every transfer
	quitOnce sync.Once
	idle     chan struct{} // signalled when a transfer ends
	wg       sync.WaitGroup

	started, malformed, dropped, retries, refused atomic.Int64
	active                                        atomic.Int64 // slots, for rate shares
}

// rateShare is one transfer's part of RateLimit when n transfers run, 0
// for no cap.
func (s *Server) rateShare(n int) float64 {
	if s.cfg.RateLimit <= 0 {
		return 0
	}
	return float64(s.cfg.RateLimit) / float64(max(n, 1))
}

// NewServer returns a server; call Serve to run it.
func NewServer(cfg ServerConfig) (*Server, error) {
	if err := cfg.populate(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, transfers: make(map[uint64]*transfer), perAddr: make(map[string]int),
		lingering: make(map[uint64]*transfer), ended: make(map[uint64]time.Time), quit: make(chan struct{}), idle: make(chan struct{}, 1)}
	if _, err := rand.Read(s.cookies.secret[:]); err != nil {
		return nil, fmt.Errorf("rdtserver: cookie secret: %w", err)
	}
	return s, nil
}

// Stats returns the server's counters.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	active, lingering := s.slots, len(s.lingering)
	s.mu.Unlock()
	return ServerStats{Active: active, Lingering: lingering, Transfers: s.started.Load(), Malformed: s.malformed.Load(),
		Dropped: s.dropped.Load(), Retries: s.retries.Load(), Refused: s.refused.Load()}
}

// Serve reads packets from pc until Shutdown or Close, which close pc.
// It returns ErrServerClosed then, or the read error that stopped it.
func (s *Server) Serve(pc net.PacketConn) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		pc.Close()
		return ErrServerClosed
	}
	if s.pc != nil {
		s.mu.Unlock()
		return errors.New("rdtserver: Serve called twice")
	}
	s.pc = pc
	opts := s.cfg.Socket
	opts.NoGRO = true // Serve reads one datagram at a time
	s.conn = rdt.NewConn(pc, opts, s.log)
	if !s.cfg.NoProbe {
		s.probing = s.conn.SetDontFragment()
	}
	s.mu.Unlock()
	rdt.SetSocketBuffers(pc)
	s.log.Info("rdt listening", zap.Stringer("addr", pc.LocalAddr()))
	buf := make([]byte, 64<<10)
	for {
		n, addr, err := pc.ReadFrom(buf)
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("rdtserver: reading: %w", err)
		}
		s.safeDatagram(buf[:n], addr)
	}
}

// safeDatagram handles one datagram on the Serve goroutine. A panic
// there (a bug in parsing, the token lookup, opening a transfer) is
// logged with its stack and answered with an ERROR (code internal) to a
// REQUEST; Serve goes on with the next datagram.
func (s *Server) safeDatagram(b []byte, addr net.Addr) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("rdt datagram handling panicked", zap.Stringer("from", addr), zap.Any("panic", p), zap.Stack("stack"))
			if pk, err := rdt.Parse(b); err == nil && pk.Type == rdt.TypeRequest {
				s.sendError(pk.ConnID, addr, rdt.CodeInternal, "internal error; try again")
			}
		}
	}()
	s.handleDatagram(b, addr)
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// handleDatagram dispatches one datagram.
func (s *Server) handleDatagram(b []byte, addr net.Addr) {
	p, err := rdt.Parse(b)
	if err != nil {
		s.malformed.Add(1)
		if ce := s.log.Check(zap.DebugLevel, "malformed packet dropped"); ce != nil {
			ce.Write(zap.Stringer("from", addr), zap.Error(err))
		}
		return
	}
	s.mu.Lock()
	t := s.transfers[p.ConnID]
	_, ended := s.ended[p.ConnID]
	s.mu.Unlock()
	if ended {
		s.dropped.Add(1)
		return
	}
	if t != nil {
		if t.addr != addr.String() {
			s.dropped.Add(1)
			return
		}
		switch p.Type {
		case rdt.TypeAck, rdt.TypeError, rdt.TypeCaps:
			p.Payload, p.Cookie = nil, nil // b is reused
			select {
			case t.in <- p:
			default:
				s.dropped.Add(1)
			}
		default:
			// A repeated REQUEST: the DATA on its way answers it.
		}
		return
	}
	if p.Type != rdt.TypeRequest {
		s.dropped.Add(1)
		return
	}
	s.handleRequest(&p, addr, len(b))
}

// handleRequest answers a REQUEST for no running transfer: with a RETRY
// cookie no larger than the request, an ERROR, or a new transfer.
func (s *Server) handleRequest(p *rdt.Packet, addr net.Addr, n int) {
	now := s.cfg.Now()
	issued, ok := s.cookies.check(p.Cookie, p.ConnID, addr.String(), now)
	if !ok {
		r := rdt.Packet{Type: rdt.TypeRetry, ConnID: p.ConnID, Cookie: s.cookies.make(p.ConnID, addr.String(), now)}
		b, err := r.Append(nil)
		if err == nil && len(b) <= n { // never more than received
			s.retries.Add(1)
			s.write(b, addr)
		}
		return
	}
	log := s.log.With(zap.Uint64("conn", p.ConnID), zap.Stringer("remote", addr))
	t, code, reason := s.admit(p, addr, log)
	if t == nil {
		s.refused.Add(1)
		log.Info("rdt request refused", zap.Stringer("code", code), zap.String("reason", reason))
		s.sendError(p.ConnID, addr, code, reason)
		return
	}
	started := false
	defer func() {
		if !started { // a panic between admit and run: free the slot
			t.file.Close()
			s.release(t)
			s.wg.Done()
		}
	}()
	hs := now.Sub(issued)
	if hs > 0 && hs < 5*time.Second {
		t.snd.cfg.rtt.seed(hs, time.Now())
	}
	s.started.Add(1)
	log.Info("rdt transfer started", zap.String("file", t.stats().File), zap.Int64("size", int64(t.snd.cfg.size)),
		zap.Int64("resumed", t.snd.stats.Resumed), zap.Int("payload", t.snd.cfg.payload))
	go t.run()
	started = true
}

// admit checks a validated request and registers its transfer. On
// refusal it returns a nil transfer with the error code and reason.
func (s *Server) admit(p *rdt.Packet, addr net.Addr, log *zap.Logger) (*transfer, rdt.ErrorCode, string) {
	// RDT tokens are bearer credentials: no principal to check. Redeem
	// opens the file only if it is still the very file the token was
	// issued for (no link, same size, device and inode).
	var sum [32]byte
	g, err := s.cfg.Tokens.Redeem(tokens.Claim{ID: p.Token, Check: func(tok tokens.Token) error {
		b, err := hex.DecodeString(tok.SHA256)
		if err != nil || len(b) != 32 {
			return &refusal{rdt.CodeInternal, "token has no valid sha256"}
		}
		sum = [32]byte(b)
		if p.Expect != ([32]byte{}) && sum != p.Expect {
			return &refusal{rdt.CodeWrongFile, "token is for another file (sha256 differs)"}
		}
		return nil
	}}, s.cfg.Now())
	var ref *refusal
	switch {
	case errors.As(err, &ref):
		return nil, ref.code, ref.reason
	case errors.Is(err, tokens.ErrExpired):
		return nil, rdt.CodeExpiredToken, "download token expired"
	case errors.Is(err, tokens.ErrFileChanged):
		return nil, rdt.CodeWrongFile, "file changed since the token was issued"
	case errors.Is(err, tokens.ErrFileGone):
		return nil, rdt.CodeWrongFile, "file is gone since the token was issued"
	case err != nil:
		return nil, rdt.CodeUnknownToken, "unknown download token"
	}
	tok, f := g.Token, g.File
	payload := int(p.MaxPayload)
	if payload == 0 {
		payload = rdt.DefaultPayload
	}
	if payload < rdt.MinPayload {
		f.Close()
		return nil, rdt.CodeBadRequest, fmt.Sprintf("payload %d below %d", payload, rdt.MinPayload)
	}
	payload = min(payload, s.cfg.MaxPayload)
	window := p.Window
	if window == 0 {
		window = rdt.DefaultWindow
	}
	window = min(window, 1<<20)
	host := hostOf(addr)

	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		f.Close()
		return nil, rdt.CodeShuttingDown, "server is shutting down"
	case s.slots >= s.cfg.MaxTransfers:
		f.Close()
		return nil, rdt.CodeBusy, "too many transfers; try again later"
	case s.perAddr[host] >= s.cfg.MaxPerAddr:
		f.Close()
		return nil, rdt.CodeBusy, "too many transfers from this address; try again later"
	}
	now := time.Now()
	var rtt rttStats
	opened := false
	defer func() {
		if !opened {
			f.Close() // newSender panicked
		}
	}()
	snd := newSender(senderConfig{connID: p.ConnID, file: f, size: uint64(tok.Size), sha256: sum, payload: payload,
		window: window, have: p.Have, rtt: &rtt, cc: newBBR(rdt.DataOverhead+payload, s.rateShare(s.slots+1), &rtt, now)}, now)
	t := &transfer{srv: s, connID: p.ConnID, addr: addr.String(), udpAddr: addr, host: host, file: f, name: filepath.Base(tok.Path),
		snd: snd, in: make(chan rdt.Packet, 256), evict: make(chan struct{}), log: log, start: now, slot: true}
	s.transfers[p.ConnID] = t
	s.slots++
	s.active.Store(int64(s.slots))
	s.perAddr[host]++
	s.wg.Add(1)
	opened = true
	return t, 0, ""
}

// refusal is a token the server will not serve, with the ERROR packet
// that says why.
type refusal struct {
	code   rdt.ErrorCode
	reason string
}

func (r *refusal) Error() string { return "rdtserver: " + r.reason }

// freeSlot gives t's slot back; s.mu is held.
func (s *Server) freeSlot(t *transfer) {
	if !t.slot {
		return
	}
	t.slot = false
	s.slots--
	s.active.Store(int64(s.slots))
	if s.perAddr[t.host]--; s.perAddr[t.host] <= 0 {
		delete(s.perAddr, t.host)
	}
}

// retire gives the slot of a transfer whose every byte was acknowledged
// back at once: the client holds the whole file, and what is left (the
// FIN's acknowledgement, the confirmation) costs no file and little
// memory. The transfer keeps running, as a lingering one, until it ends
// as usual. If more than MaxTransfers transfers linger, the one retired
// longest ago is told to end now.
func (s *Server) retire(t *transfer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.slot {
		return
	}
	s.freeSlot(t)
	t.retiredAt = time.Now()
	s.lingering[t.connID] = t
	if len(s.lingering) <= s.cfg.MaxTransfers {
		return
	}
	var oldest *transfer
	for _, l := range s.lingering {
		if l != t && !l.evicted && (oldest == nil || l.retiredAt.Before(oldest.retiredAt)) {
			oldest = l
		}
	}
	if oldest != nil {
		oldest.evicted = true
		close(oldest.evict)
	}
}

// release forgets a finished transfer.
func (s *Server) release(t *transfer) {
	now := time.Now()
	s.mu.Lock()
	delete(s.transfers, t.connID)
	delete(s.lingering, t.connID)
	s.freeSlot(t)
	for id, at := range s.ended {
		if now.Sub(at) > cookieLifetime {
			delete(s.ended, id)
		}
	}
	s.ended[t.connID] = now
	s.mu.Unlock()
	select {
	case s.idle <- struct{}{}:
	default:
	}
}

func hostOf(a net.Addr) string {
	if u, ok := a.(*net.UDPAddr); ok {
		return u.IP.String()
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

// sendError sends an ERROR packet.
func (s *Server) sendError(connID uint64, addr net.Addr, code rdt.ErrorCode, reason string) {
	e := rdt.Packet{Type: rdt.TypeError, ConnID: connID, Code: code, Reason: reason}
	if b, err := e.Append(nil); err == nil {
		s.write(b, addr)
	}
}

// write sends one datagram; UDP send errors are logged, not fatal.
func (s *Server) write(b []byte, addr net.Addr) error {
	s.mu.Lock()
	pc := s.pc
	s.mu.Unlock()
	if pc == nil {
		return net.ErrClosed
	}
	_, err := pc.WriteTo(b, addr)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		if ce := s.log.Check(zap.DebugLevel, "udp write failed"); ce != nil {
			ce.Write(zap.Stringer("to", addr), zap.Error(err))
		}
	}
	return err
}

// Shutdown stops accepting transfers, lets those in progress finish
// until ctx ends, then aborts the rest (their clients get an ERROR
// shutting_down and can resume later) and closes the socket.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	var err error
	for {
		s.mu.Lock()
		n := len(s.transfers)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-s.idle:
			continue
		case <-ctx.Done():
			err = ctx.Err()
		}
		break
	}
	s.abortAll()
	return errors.Join(err, s.closeSocket())
}

// Close aborts every transfer and closes the socket. It is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.abortAll()
	return s.closeSocket()
}

func (s *Server) abortAll() {
	s.quitOnce.Do(func() { close(s.quit) })
	s.wg.Wait()
}

func (s *Server) closeSocket() error {
	s.mu.Lock()
	pc := s.pc
	s.mu.Unlock()
	if pc == nil {
		return nil
	}
	if err := pc.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
