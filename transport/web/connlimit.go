package web

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/internal/authlimit"
)

// connLimit bounds the open HTTP connections, in all and per client
// address (IPv6: per /64, authlimit.Key). It runs in the server's
// ConnState hook, on the raw connection before any byte is read (so TLS
// is unaffected).
//
// A new connection over a cap takes the place of a connection that is
// doing nothing: one whose first request has not been read whole yet
// (StateNew: silent, or sending its header slowly) or that sits idle
// between requests (StateIdle), the one that has been so longest, from
// the newcomer's address when that address is at its cap, else from the
// address with the most open. The one evicted is closed, which costs an
// honest client at most a reconnect; silent sockets, from other
// addresses or from the client's own, so cannot lock a client out. Only
// when every connection is busy with a request is the newcomer closed,
// at once, without a reply. Refusals are logged at most once a minute,
// with their count.
type connLimit struct {
	max, perAddr int
	log          *zap.Logger

	mu      sync.Mutex
	seq     uint64
	open    map[net.Conn]*connEntry
	byAddr  map[netip.Prefix]int
	refused int       // since the last warning
	warned  time.Time // when the last warning was logged
}

// connEntry is one counted connection.
type connEntry struct {
	key  netip.Prefix
	busy bool   // a request was read and is being served (StateActive)
	seq  uint64 // order of its last change of state: lower is older
}

func newConnLimit(max, perAddr int, log *zap.Logger) *connLimit {
	return &connLimit{max: max, perAddr: perAddr, log: log,
		open: make(map[net.Conn]*connEntry), byAddr: make(map[netip.Prefix]int)}
}

// admit counts c, making room by evicting a connection that does
// nothing if a cap is reached; if none can go, it closes c.
func (l *connLimit) admit(c net.Conn) {
	k := authlimit.Key(authlimit.AddrOf(c.RemoteAddr().String()))
	l.mu.Lock()
	// Evicting one of its own address's makes room in the total too,
	// since the total was within its cap: at most one goes.
	var evict net.Conn
	ok := true
	switch {
	case l.byAddr[k] >= l.perAddr:
		evict = l.victim(func(e *connEntry) bool { return e.key == k })
		ok = evict != nil
	case len(l.open) >= l.max:
		evict = l.victim(l.fromLargest())
		ok = evict != nil
	}
	warn, n := false, 0
	if ok {
		if evict != nil {
			l.forget(evict)
		}
		l.seq++
		l.open[c] = &connEntry{key: k, seq: l.seq}
		l.byAddr[k]++
	} else if l.refused++; time.Since(l.warned) >= time.Minute {
		warn, n, l.refused, l.warned = true, l.refused, 0, time.Now()
	}
	l.mu.Unlock()
	if !ok {
		if warn { // at most once a minute: a flood must not flood the log
			l.log.Warn("http connections refused: too many open and busy", zap.Stringer("remote", c.RemoteAddr()),
				zap.Int("refused", n), zap.Int("max_conns", l.max), zap.Int("max_conns_per_addr", l.perAddr))
		}
		c.Close()
		return
	}
	if evict != nil {
		l.log.Debug("http connection evicted for a newer one", zap.Stringer("remote", evict.RemoteAddr()))
		evict.Close()
	}
}

// victim returns the connection among those match accepts that does
// nothing and has done so longest, or nil. l.mu must be held.
func (l *connLimit) victim(match func(*connEntry) bool) net.Conn {
	var v net.Conn
	var ve *connEntry
	for c, e := range l.open {
		if !e.busy && match(e) && (ve == nil || e.seq < ve.seq) {
			v, ve = c, e
		}
	}
	return v
}

// fromLargest matches the connections of the address with the most
// open that has one doing nothing. l.mu must be held while it is used.
func (l *connLimit) fromLargest() func(*connEntry) bool {
	var best netip.Prefix
	n := -1
	for _, e := range l.open {
		if !e.busy && l.byAddr[e.key] > n {
			best, n = e.key, l.byAddr[e.key]
		}
	}
	return func(e *connEntry) bool { return e.key == best }
}

// state records c's state: busy while a request is served.
func (l *connLimit) state(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.open[c]; e != nil {
		l.seq++
		e.busy, e.seq = st == http.StateActive, l.seq
	}
}

// release uncounts c; a connection refused or evicted is not counted.
func (l *connLimit) release(c net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forget(c)
}

// forget uncounts c if it is counted. l.mu must be held.
func (l *connLimit) forget(c net.Conn) {
	e, ok := l.open[c]
	if !ok {
		return
	}
	delete(l.open, c)
	if l.byAddr[e.key]--; l.byAddr[e.key] <= 0 {
		delete(l.byAddr, e.key)
	}
}
