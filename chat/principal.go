package chat

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// LocalID is the principal id of the local operator: a client on a
// loopback listener of a server without an access token.
const LocalID = "local"

// Principal is who a session acts for. Its ID is recorded as the owner
// of every conversation the session creates, and decides which
// conversations the session may list, switch to, read, delete, and
// download from (Sees). The zero Principal sees nothing.
type Principal struct {
	// ID is a stable id: LocalID, or one derived from a credential by
	// TokenPrincipal. It is stored on disk, so it must never be a secret.
	ID string
	// Admin also sees conversations recorded before conversations had
	// owners (owner ""). Today's single auth_token is the admin.
	Admin bool
}

// Local is the local operator, who sees every conversation.
func Local() Principal { return Principal{ID: LocalID, Admin: true} }

// principalKey keys the HMAC that derives principal ids from tokens, so
// an id is not a bare hash anyone could look up.
const principalKey = "opsassist principal v1"

// TokenPrincipal is the principal authenticated by an access token. Its
// ID is derived from the token (HMAC-SHA-256, first 128 bits, hex) and
// is stable across restarts; the token itself cannot be read back from
// it.
func TokenPrincipal(token string, admin bool) Principal {
	m := hmac.New(sha256.New, []byte(principalKey))
	m.Write([]byte(token))
	return Principal{ID: "t-" + hex.EncodeToString(m.Sum(nil)[:16]), Admin: admin}
}

// Sees reports whether p may use a conversation owned by owner: the local
// operator sees all; anyone else their own, and an admin also those
// without an owner.
func (p Principal) Sees(owner string) bool {
	switch {
	case p.ID == "":
		return false
	case p.ID == LocalID:
		return true
	case owner == "":
		return p.Admin
	}
	return owner == p.ID
}
