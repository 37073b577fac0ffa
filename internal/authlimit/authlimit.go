// Package authlimit is the one rule for throttling access-token guesses,
// shared by every transport that checks a token (NPLT's HELLO, HTTP's
// bearer header, cookie and login form): at most MaxFailures wrong tokens
// from one address within Window, after which the address is refused
// until the window that began with its first failure ends. IPv4
// addresses count one by one; IPv6 addresses count by /64, since one
// host usually holds a whole /64, and each /48 (one site) has a budget
// of its own of SiteFactor times MaxFailures, so an attacker rotating
// through the /64s of its site is blocked as a whole.
//
// The limiter remembers at most 4,096 groups. When full, it forgets
// windows that ended first, then the groups whose windows began first
// among those not blocked, and blocked groups only when too few others
// are left: failures from many other addresses cannot flush an
// attacker's block.
package authlimit

import (
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// Defaults of the limiter.
const (
	// MaxFailures wrong tokens within Window block an address.
	MaxFailures = 10
	// Window is how long failures are counted, and an address blocked.
	Window = time.Minute
	// SiteFactor times the per-address maximum is the budget of one
	// IPv6 /48, shared by all its /64s.
	SiteFactor = 10
	// maxTracked bounds the groups remembered.
	maxTracked = 4096
)

// Message is what both transports tell a blocked address.
const Message = "too many wrong access tokens from this address; try again in a minute"

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
	if l.blocked(l.byAddr[Key(addr)], l.max, now) {
		return true
	}
	site, ok := siteKey(addr)
	return ok && l.blocked(l.byAddr[site], SiteFactor*l.max, now)
}

// blocked reports whether f holds at least max failures in a window
// still running at now.
func (l *Limiter) blocked(f *failures, max int, now time.Time) bool {
	return f != nil && now.Sub(f.start) < l.window && f.n >= max
}

// Fail records a wrong token from addr at now, against its group and,
// for IPv6, its /48.
func (l *Limiter) Fail(addr netip.Addr, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count(Key(addr), now)
	if site, ok := siteKey(addr); ok {
		l.count(site, now)
	}
}

// count adds a failure at now to group k; l.mu must be held.
func (l *Limiter) count(k netip.Prefix, now time.Time) {
	f := l.byAddr[k]
	if f == nil || now.Sub(f.start) >= l.window {
		if f == nil && len(l.byAddr) >= maxTracked {
			l.prune(now)
		}
		f = &failures{start: now}
		l.byAddr[k] = f
	}
	f.n++
}

// prune makes room: it forgets windows that ended; if none had, the
// eighth of the groups whose windows began first, unblocked groups
// before blocked ones (a block ending soonest goes first), so a full
// table is pruned once per maxTracked/8 new groups. l.mu must be held.
func (l *Limiter) prune(now time.Time) {
	type entry struct {
		k       netip.Prefix
		start   time.Time
		blocked bool
	}
	live := make([]entry, 0, len(l.byAddr))
	for k, f := range l.byAddr {
		if now.Sub(f.start) >= l.window {
			delete(l.byAddr, k)
			continue
		}
		live = append(live, entry{k, f.start, f.n >= l.limit(k)})
	}
	if len(l.byAddr) < maxTracked {
		return
	}
	slices.SortFunc(live, func(a, b entry) int {
		if a.blocked != b.blocked {
			if a.blocked {
				return 1
			}
			return -1
		}
		return a.start.Compare(b.start)
	})
	for _, e := range live[:maxTracked/8] {
		delete(l.byAddr, e.k)
	}
}

// limit is the failures that block group k: SiteFactor times the
// maximum for an IPv6 /48, the maximum otherwise.
func (l *Limiter) limit(k netip.Prefix) int {
	if k.Addr().Is6() && k.Bits() == siteBits {
		return SiteFactor * l.max
	}
	return l.max
}

// siteBits is the prefix length of an IPv6 site.
const siteBits = 48

// siteKey returns the /48 of an IPv6 address; false for IPv4.
func siteKey(a netip.Addr) (netip.Prefix, bool) {
	a = a.Unmap()
	if !a.Is6() {
		return netip.Prefix{}, false
	}
	p, err := a.WithZone("").Prefix(siteBits)
	return p, err == nil
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
