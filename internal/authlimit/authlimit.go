// Package authlimit is the one rule for throttling access-token guesses,
// shared by every transport that checks a token (NPLT's HELLO, HTTP's
// bearer header, cookie and login form): at most MaxFailures wrong tokens
// from one address within Window, after which the address is refused
// until the window that began with its first failure ends. IPv4
// addresses count one by one; IPv6 addresses count by /64, since one
// host usually holds a whole /64.
package authlimit

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// Defaults of the limiter.
const (
	// MaxFailures wrong tokens within Window block an address.
	MaxFailures = 10
	// Window is how long failures are counted, and an address blocked.
	Window = time.Minute
	// maxTracked bounds the addresses remembered.
	maxTracked = 4096
)

// Code is the error code both transports answer a blocked address with.
const Code = "too_many_attempts"

// Limiter counts wrong access tokens per address. It is safe for
// concurrent use; the zero value is not usable, call New.
type Limiter struct {
	max    int
	window time.Duration

	mu     sync.Mutex
	byAddr map[netip.Prefix]*failures
}

// failures is one address's wrong tokens in the window that began at
// start.
type failures struct {
	start time.Time
	n     int
}

// New returns a Limiter allowing max failures per window (≤ 0: the
// defaults).
func New(max int, window time.Duration) *Limiter {
	if max <= 0 {
		max = MaxFailures
	}
	if window <= 0 {
		window = Window
	}
	return &Limiter{max: max, window: window, byAddr: make(map[netip.Prefix]*failures)}
}

// Blocked reports whether addr may not try another token at now.
func (l *Limiter) Blocked(addr netip.Addr, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.byAddr[Key(addr)]
	return f != nil && now.Sub(f.start) < l.window && f.n >= l.max
}

// Fail records a wrong token from addr at now.
func (l *Limiter) Fail(addr netip.Addr, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := Key(addr)
	f := l.byAddr[k]
	if f == nil || now.Sub(f.start) >= l.window {
		if len(l.byAddr) >= maxTracked {
			l.prune(now)
		}
		f = &failures{start: now}
		l.byAddr[k] = f
	}
	f.n++
}

// prune forgets windows that ended, and if none had, addresses at
// random, so the table stays bounded; l.mu must be held.
func (l *Limiter) prune(now time.Time) {
	for k, f := range l.byAddr {
		if now.Sub(f.start) >= l.window {
			delete(l.byAddr, k)
		}
	}
	for k := range l.byAddr {
		if len(l.byAddr) < maxTracked {
			break
		}
		delete(l.byAddr, k)
	}
}

// Key is the group an address is counted in: the address itself for
// IPv4 (and IPv4-mapped IPv6), its /64 for IPv6. Limits per address
// elsewhere (unauthenticated connections) use the same key.
func Key(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, err := a.WithZone("").Prefix(bits)
	if err != nil { // the zero Addr
		return netip.Prefix{}
	}
	return p
}

// AddrOf returns the IP of a network address ("host:port" string or a
// net.Addr's String); the zero Addr if it has none, which all such
// callers then share.
func AddrOf(hostport string) netip.Addr {
	if ap, err := netip.ParseAddrPort(hostport); err == nil {
		return ap.Addr()
	}
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	a, _ := netip.ParseAddr(host)
	return a
}
