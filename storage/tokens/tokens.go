// Package tokens issues and checks download tokens. The file_download
// tool issues a token bound to one file's path, size and SHA-256; the
// RDT, NPLT and HTTP servers serve a download only through Store.Redeem,
// the one check: a token found here, not yet expired, visible to the
// requester, whose path still holds the very file it was issued for.
package tokens

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultTTL is how long a token stays valid.
const DefaultTTL = 10 * time.Minute

// Errors returned by Redeem.
var (
	ErrUnknown = errors.New("tokens: unknown download token")
	ErrExpired = errors.New("tokens: download token expired")
)

// Token grants the download of one file.
type Token struct {
	ID        string
	Path      string
	Filename  string
	Size      int64
	SHA256    string
	SessionID string
	// Owner, if set, is the principal id (chat.Principal.ID) the token
	// was issued to — a call outside any conversation, such as an MCP
	// client's: that principal may redeem it (Claim.Principal) whether
	// or not it may see SessionID.
	Owner     string
	ExpiresAt time.Time
	// Dev and Ino identify the file that was checked and hashed, if
	// known (non-zero Ino): Open refuses any other file found at Path.
	Dev, Ino uint64
}

// Store holds issued tokens in memory. It is safe for concurrent use.
type Store struct {
	ttl time.Duration

	mu     sync.Mutex
	tokens map[string]Token
}

// NewStore returns a Store whose tokens live for ttl (≤ 0: DefaultTTL).
func NewStore(ttl time.Duration) *Store {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Store{ttl: ttl, tokens: make(map[string]Token)}
}

// Issue records a new token for t's file, valid from now for the TTL, and
// returns it with its ID and expiry set.
func (s *Store) Issue(t Token, now time.Time) (Token, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Token{}, fmt.Errorf("tokens: %w", err)
	}
	t.ID = hex.EncodeToString(b[:])
	t.ExpiresAt = now.Add(s.ttl)
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, old := range s.tokens { // expired tokens go when new ones come
		if !now.Before(old.ExpiresAt.Add(s.ttl)) {
			delete(s.tokens, id)
		}
	}
	s.tokens[t.ID] = t
	return t, nil
}

// lookup returns the token with this ID. A token may be used any number
// of times until it expires (resumed and ranged downloads). Expired
// tokens are told apart from unknown ones for a while, so clients can say
// which it was.
func (s *Store) lookup(id string, now time.Time) (Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[id]
	if !ok {
		return Token{}, ErrUnknown
	}
	if !now.Before(t.ExpiresAt) {
		return Token{}, ErrExpired
	}
	return t, nil
}
