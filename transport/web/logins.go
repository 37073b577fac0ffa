package web

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"opsassist/chat"
)

// logins are the web's login sessions: the login cookie holds a random
// id, and only ids found here (and not expired) are accepted, so logout
// revokes a cookie and a forged one is refused. They live in memory: a
// restart logs everyone out. It is safe for concurrent use.
type logins struct {
	max int
	ttl time.Duration

	mu   sync.Mutex
	byID map[string]login
}

// login is one live login session.
type login struct {
	who     chat.Principal
	expires time.Time
}

func newLogins(max int, ttl time.Duration) *logins {
	return &logins{max: max, ttl: ttl, byID: make(map[string]login)}
}

// start opens a session for who and returns its id (256 random bits,
// hex). At the cap, expired sessions go first, then the one closest to
// expiring.
func (l *logins) start(who chat.Principal, now time.Time) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.byID) >= l.max {
		l.evict(now)
	}
	l.byID[id] = login{who: who, expires: now.Add(l.ttl)}
	return id, nil
}

// evict drops expired sessions, and if none were, the one expiring
// first; l.mu must be held.
func (l *logins) evict(now time.Time) {
	var oldest string
	var oldestAt time.Time
	for id, s := range l.byID {
		if !now.Before(s.expires) {
			delete(l.byID, id)
			continue
		}
		if oldest == "" || s.expires.Before(oldestAt) {
			oldest, oldestAt = id, s.expires
		}
	}
	if len(l.byID) >= l.max {
		delete(l.byID, oldest)
	}
}

// lookup returns the principal of a live session.
func (l *logins) lookup(id string, now time.Time) (chat.Principal, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.byID[id]
	if !ok {
		return chat.Principal{}, false
	}
	if !now.Before(s.expires) {
		delete(l.byID, id)
		return chat.Principal{}, false
	}
	return s.who, true
}

// end revokes a session; an unknown id is ignored.
func (l *logins) end(id string) {
	l.mu.Lock()
	delete(l.byID, id)
	l.mu.Unlock()
}

// live returns the number of sessions held, expired ones included until
// they are found.
func (l *logins) live() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byID)
}
