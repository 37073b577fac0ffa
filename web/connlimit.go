package web

import (
	"net"
	"net/netip"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/internal/authlimit"
)

// connLimit bounds the open HTTP connections, in all and per client
// address (IPv6: per /64, authlimit.Key). It runs in the server's
// ConnState hook, on the raw connection before any byte is read (so
// TLS is unaffected): a connection over either cap is closed at once,
// its fd freed, without a reply. Refusals are logged at most once a
// minute, with their count.
type connLimit struct {
	max, perAddr int
	log          *zap.Logger

	mu      sync.Mutex
	open    map[net.Conn]netip.Prefix // counted connections and their key
	byAddr  map[netip.Prefix]int
	refused int       // since the last warning
	warned  time.Time // when the last warning was logged
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
	warn, n := false, 0
	if ok {
		l.open[c] = k
		l.byAddr[k]++
	} else if l.refused++; time.Since(l.warned) >= time.Minute {
		warn, n, l.refused, l.warned = true, l.refused, 0, time.Now()
	}
	l.mu.Unlock()
	if !ok {
		if warn { // at most once a minute: a flood must not flood the log
			l.log.Warn("http connections refused: too many open", zap.Stringer("remote", c.RemoteAddr()),
				zap.Int("refused", n), zap.Int("max_conns", l.max), zap.Int("max_conns_per_addr", l.perAddr))
		}
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
