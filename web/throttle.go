package web

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits on guessing the access token.
const (
	// maxFailures wrong tokens from one address within failureWindow
	// block that address until the window ends.
	maxFailures   = 10
	failureWindow = time.Minute
	// maxTracked bounds the addresses remembered.
	maxTracked = 4096
)

// CodeTooManyAttempts answers an address that sent too many wrong tokens.
const CodeTooManyAttempts = "too_many_attempts"

// attempts counts wrong access tokens per client address. It is safe for
// concurrent use.
type attempts struct {
	mu   sync.Mutex
	byIP map[string]*failures
}

// failures is one address's wrong tokens in the window that began at
// start.
type failures struct {
	start time.Time
	n     int
}

func newAttempts() *attempts { return &attempts{byIP: make(map[string]*failures)} }

// blocked reports whether the address of r may not try another token now.
func (a *attempts) blocked(r *http.Request, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	f := a.byIP[remoteIP(r)]
	return f != nil && now.Sub(f.start) < failureWindow && f.n >= maxFailures
}

// fail records a wrong token from the address of r.
func (a *attempts) fail(r *http.Request, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ip := remoteIP(r)
	f := a.byIP[ip]
	if f == nil || now.Sub(f.start) >= failureWindow {
		if len(a.byIP) >= maxTracked {
			a.prune(now)
		}
		f = &failures{start: now}
		a.byIP[ip] = f
	}
	f.n++
}

// prune forgets windows that ended, and if none had, one address at
// random, so the table stays bounded; a.mu must be held.
func (a *attempts) prune(now time.Time) {
	for ip, f := range a.byIP {
		if now.Sub(f.start) >= failureWindow {
			delete(a.byIP, ip)
		}
	}
	for ip := range a.byIP {
		if len(a.byIP) < maxTracked {
			break
		}
		delete(a.byIP, ip)
	}
}

// remoteIP is the client's address without its port.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
