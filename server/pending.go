package server

import (
	"net"
	"net/netip"
	"time"

	"go.uber.org/zap"

	"opsassist/nplt"
)

// waitingHello counts connections that have not authenticated yet, in
// total and per address key (authlimit.Key). Guarded by Server.mu.
type waitingHello struct {
	total  int
	byAddr map[netip.Prefix]int
}

// chatting is the number of connections counted toward MaxClients: all
// but those waiting to authenticate. s.mu must be held.
func (s *Server) chatting() int { return len(s.conns) - s.waiting.total }

// admitUnauthenticated decides whether a new connection from addr may
// wait for its HELLO: not from an address throttled for wrong tokens,
// and within MaxUnauthenticated and MaxUnauthenticatedPerAddr. It counts
// the connection and returns "" or the refusal's code and message. s.mu
// must be held.
func (s *Server) admitUnauthenticated(addr netip.Addr, key netip.Prefix) (code, msg string) {
	switch {
	case s.cfg.Limiter.Blocked(addr, time.Now()):
		return nplt.CodeTooManyAttempts, "too many wrong access tokens from this address; try again in a minute"
	case s.waiting.total >= s.cfg.MaxUnauthenticated:
		s.log.Warn("refusing connection: too many waiting to authenticate", zap.Stringer("addr", addr), zap.Int("max", s.cfg.MaxUnauthenticated))
		return nplt.CodeServerBusy, "server busy: too many connections waiting to authenticate"
	case s.waiting.byAddr[key] >= s.cfg.MaxUnauthenticatedPerAddr:
		s.log.Info("refusing connection: too many from one address waiting to authenticate", zap.Stringer("addr", addr))
		return nplt.CodeServerBusy, "too many connections from this address waiting to authenticate"
	}
	s.waiting.total++
	s.waiting.byAddr[key]++
	return "", ""
}

// authenticated moves c from the waiting connections to the chatting
// ones, if MaxClients allows; it reports whether it did. A connection
// refused here stays counted as waiting until it closes.
func (s *Server) authenticated(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chatting() >= s.cfg.MaxClients {
		return false
	}
	s.releaseWaiting(c)
	return true
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

// refuseAsync tells a client why it is refused and closes, on a bounded
// number of goroutines; past that it just closes.
func (s *Server) refuseAsync(nc net.Conn, code, msg string) {
	select {
	case s.refusing <- struct{}{}:
		s.wg.Add(1)
		go func() {
			defer func() { <-s.refusing; s.wg.Done() }()
			refuse(nc, s.cfg.WriteTimeout, code, msg)
		}()
	default:
		nc.Close() // a flood of refusals: do not spend a goroutine on each
	}
}
