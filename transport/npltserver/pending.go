package npltserver

import (
	"net"
	"net/netip"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/internal/authlimit"
)

// waitingHello counts connections that have not authenticated yet, in
// total and per address key (authlimit.Key). Guarded by Server.mu.
type waitingHello struct {
	total  int
	byAddr map[netip.Prefix]int
}

// Refusals of connections waiting to authenticate.
const (
	msgBusyWaiting = "server busy: too many connections waiting to authenticate"
	msgBusyAddr    = "too many connections from this address waiting to authenticate"
)

// admitUnauthenticated decides whether a new connection from addr may
// wait for its HELLO: not from an address throttled for wrong tokens.
// When MaxUnauthenticatedPerAddr from its address are already waiting,
// the oldest of them is evicted to make room (evictWaitingFrom); when
// MaxUnauthenticated are waiting in all, the oldest connection of the
// address with the most waiting is (evictWaiting). Idle sockets, from
// other addresses or from the token holder's own, so cannot hold the
// pool against a token holder, whose HELLO follows its connect at once;
// they only bound how many sockets wait at a time. It counts the
// connection and returns "" or the refusal's code and message. s.mu must
// be held.
func (s *Server) admitUnauthenticated(addr netip.Addr, key netip.Prefix) (code, msg string) {
	switch {
	case s.cfg.Limiter.Blocked(addr, time.Now()):
		return api.CodeTooManyAttempts, authlimit.Message
	case s.waiting.byAddr[key] >= s.cfg.MaxUnauthenticatedPerAddr && !s.evictWaitingFrom(key):
		s.log.Info("refusing connection: too many from one address waiting to authenticate", zap.Stringer("addr", addr))
		return api.CodeServerBusy, msgBusyAddr
	case s.waiting.total >= s.cfg.MaxUnauthenticated && !s.evictWaiting():
		s.log.Warn("refusing connection: too many waiting to authenticate", zap.Stringer("addr", addr), zap.Int("max", s.cfg.MaxUnauthenticated))
		return api.CodeServerBusy, msgBusyWaiting
	}
	s.waiting.total++
	s.waiting.byAddr[key]++
	return "", ""
}

// evictWaitingFrom evicts (as evictWaiting) the connection from key that
// has waited longest to authenticate. It reports whether there was one.
// s.mu must be held.
func (s *Server) evictWaitingFrom(key netip.Prefix) bool {
	var victim *conn
	for c := range s.conns {
		if c.waiting && c.waitKey == key && (victim == nil || c.id < victim.id) {
			victim = c
		}
	}
	if victim == nil {
		return false
	}
	s.evict(victim)
	return true
}

// evictWaiting stops counting the connection waiting to authenticate
// that came first from the address with the most waiting, and asks it to
// close with server_busy (conn.evict). It reports whether there was one.
// s.mu must be held.
func (s *Server) evictWaiting() bool {
	var victim *conn
	for c := range s.conns {
		if !c.waiting {
			continue
		}
		if victim == nil {
			victim = c
			continue
		}
		n, vn := s.waiting.byAddr[c.waitKey], s.waiting.byAddr[victim.waitKey]
		if n > vn || n == vn && c.id < victim.id {
			victim = c
		}
	}
	if victim == nil {
		return false
	}
	s.evict(victim)
	return true
}

// evict stops counting victim as waiting to authenticate and asks it to
// close with server_busy (conn.evict). s.mu must be held.
func (s *Server) evict(victim *conn) {
	s.log.Debug("evicting the oldest connection waiting to authenticate", zap.Uint64("conn", victim.id), zap.Stringer("remote", victim.nc.RemoteAddr()))
	s.releaseWaiting(victim)
	victim.evict()
}

// authenticated moves c from the waiting connections to the chatting
// ones, if MaxClients allows; it reports whether it did. A connection
// refused here stays counted as waiting until it closes.
func (s *Server) authenticated(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chatting >= s.cfg.MaxClients {
		return false
	}
	s.releaseWaiting(c)
	s.startChatting(c)
	return true
}

// startChatting counts c toward MaxClients until it closes. s.mu must
// be held.
func (s *Server) startChatting(c *conn) {
	c.chatter = true
	s.chatting++
}

// released stops counting a closed connection, waiting or chatting.
// s.mu must be held.
func (s *Server) released(c *conn) {
	s.releaseWaiting(c)
	if c.chatter {
		c.chatter = false
		s.chatting--
	}
}

// releaseWaiting stops counting c as waiting to authenticate, once. s.mu
// must be held.
func (s *Server) releaseWaiting(c *conn) {
	if !c.waiting {
		return
	}
	c.waiting = false
	s.waiting.total--
	if s.waiting.byAddr[c.waitKey]--; s.waiting.byAddr[c.waitKey] <= 0 {
		delete(s.waiting.byAddr, c.waitKey)
	}
}

// refuseTimeout bounds a refusal, both ways: over TLS the refusal's
// first write runs the handshake, which waits for the client's
// ClientHello. It is the shorter of HelloTimeout and WriteTimeout.
func (s *Server) refuseTimeout() time.Duration { return min(s.cfg.HelloTimeout, s.cfg.WriteTimeout) }

// refuseAsync tells a client why it is refused and closes, on a bounded
// number of goroutines, each bounded by refuseTimeout; past that it just
// closes. Shutdown closes the connections being refused.
func (s *Server) refuseAsync(nc net.Conn, code, msg string) {
	select {
	case s.refusing <- struct{}{}:
	default:
		nc.Close() // a flood of refusals: do not spend a goroutine on each
		return
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		<-s.refusing
		nc.Close()
		return
	}
	s.refused[nc] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			delete(s.refused, nc)
			s.mu.Unlock()
			<-s.refusing
			s.wg.Done()
		}()
		refuse(nc, s.refuseTimeout(), code, msg)
	}()
}
