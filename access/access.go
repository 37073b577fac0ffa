package access

import (
	"crypto/sha256"

	"opsassist/chat"
)

// User is one configured user.
type User struct {
	// Name is the user's name (users: key): letters, digits, '.', '_'
	// and '-', at most 64 characters; not "local".
	Name string
	// Role is the user's role name (built-in or configured).
	Role string
	// Admin is the role's admin flag: the user may read the audit log
	// and sees conversations without an owner.
	Admin bool
	// TokenSHA256 is the SHA-256 of the user's access token.
	TokenSHA256 [32]byte
}

// HashToken returns the SHA-256 of an access token, as User.TokenSHA256
// keeps it.
func HashToken(token string) [32]byte { return sha256.Sum256([]byte(token)) }

// Directory maps access tokens to principals. It is immutable and safe
// for concurrent use. The zero Directory, and a nil one, have no users
// (Enabled false).
type Directory struct {
	users []entry
}

type entry struct {
	hash [32]byte
	who  chat.Principal
}

// New returns the directory of users plus, if authToken is set, the
// single auth_token's holder (chat.TokenPrincipal: the admin named
// chat.AdminName). It refuses duplicate names, a user named like the
// auth_token's holder or chat.LocalID, bad names, and two users with one
// token.
func New(users []User, authToken string) (*Directory, error) {
	panic("TODO(h1)")
}

// Enabled reports whether any token is configured: then every client,
// on every listener, must present one.
func (d *Directory) Enabled() bool { return d != nil && len(d.users) > 0 }

// Authenticate returns the principal whose token tok is, comparing its
// hash with every user's in constant time.
func (d *Directory) Authenticate(tok string) (chat.Principal, bool) {
	panic("TODO(h1)")
}
