package web

import (
	"net"
	"net/netip"
	"sync"

	"go.uber.org/zap"

	"opsassist/internal/authlimit"
)

// connLimit bounds the open HTTP connections, in all and per client
// address (IPv6: per /64, authlimit.Key). It runs in the server's
// ConnState hook, on the raw connection before any byte is read (so
// TLS is unaffected): a connection over either cap is closed at once,
// its fd freed, without a reply.
type connLimit struct {
	max, perAddr int
	log          *zap.Logger

	mu     sync.Mutex
	open   map[net.Conn]netip.Prefix // counted connections and their key
	byAddr map[netip.Prefix]int
}

func newConnLimit(max, perAddr int, log *zap.Logger) *connLimit {
	return &connLimit{max: max, perAddr: perAddr, log: log,
		open: make(map[net.Conn]netip.Prefix), byAddr: make(map[netip.Prefix]int)}
}

// admit counts c, or closes it and reports false when a cap is reached.
func (l *connLimit) admit(c net.Conn) bool {
	k := authlimit.Key(authlimit.AddrOf(c.RemoteAddr().String()))
	l.mu.Lock()
	ok := len(l.open) < l.max && l.byAddr[k] < l.perAddr
	if ok {
		l.open[c] = k
		l.byAddr[k]++
	}
	l.mu.Unlock()
	if !ok {
		l.log.Warn("http connection refused: too many connections", zap.Stringer("remote", c.RemoteAddr()))
		c.Close()
	}
	return ok
}

// release uncounts c; a connection admit refused was never counted.
func (l *connLimit) release(c net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.open[c]
	if !ok {
		return
	}
	delete(l.open, c)
	if l.byAddr[k]--; l.byAddr[k] <= 0 {
		delete(l.byAddr, k)
	}
}
