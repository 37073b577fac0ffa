package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"regexp"
	"strings"

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

// Errors New returns (matched with errors.Is); the message names the
// user, never a token or a hash.
var (
	// ErrBadName: a user name is empty, too long, has a character
	// outside [A-Za-z0-9._-], or starts with '.', '_' or '-'.
	ErrBadName = errors.New("access: bad user name")
	// ErrReservedName: a user is named chat.LocalID, or chat.AdminName
	// while auth_token is set.
	ErrReservedName = errors.New("access: reserved user name")
	// ErrDuplicateName: two users have one name.
	ErrDuplicateName = errors.New("access: duplicate user name")
	// ErrDuplicateToken: two users (or a user and auth_token) have one
	// token.
	ErrDuplicateToken = errors.New("access: two users share one token")
	// ErrNoRole: a user has no role.
	ErrNoRole = errors.New("access: user without a role")
)

// nameRE is the shape of a user name.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidName reports whether name may name a user (the users: key):
// letters, digits, '.', '_' and '-', starting with a letter or digit,
// at most 64 characters, and not chat.LocalID.
func ValidName(name string) bool { return nameRE.MatchString(name) && name != chat.LocalID }

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
	d := &Directory{users: make([]entry, 0, len(users)+1)}
	names := make(map[string]bool, len(users))
	hashes := make(map[[32]byte]string, len(users)+1)
	if authToken != "" {
		h := HashToken(authToken)
		hashes[h] = "auth_token"
		d.users = append(d.users, entry{hash: h, who: chat.TokenPrincipal(authToken, true)})
	}
	for _, u := range users {
		switch {
		case strings.EqualFold(u.Name, chat.LocalID):
			return nil, fmt.Errorf("user %q: %w (the local operator's)", u.Name, ErrReservedName)
		case !nameRE.MatchString(u.Name):
			return nil, fmt.Errorf("user %q: %w: want ASCII letters, digits, '.', '_' or '-', at most 64, starting with a letter or digit", u.Name, ErrBadName)
		case authToken != "" && strings.EqualFold(u.Name, chat.AdminName):
			return nil, fmt.Errorf("user %q: %w (auth_token's holder)", u.Name, ErrReservedName)
		case names[strings.ToLower(u.Name)]:
			return nil, fmt.Errorf("user %q: %w", u.Name, ErrDuplicateName)
		case u.Role == "":
			return nil, fmt.Errorf("user %q: %w", u.Name, ErrNoRole)
		}
		if other, ok := hashes[u.TokenSHA256]; ok {
			return nil, fmt.Errorf("user %q: %w (%s)", u.Name, ErrDuplicateToken, other)
		}
		names[strings.ToLower(u.Name)] = true // Alice and alice are one name to a person
		hashes[u.TokenSHA256] = "user " + u.Name
		d.users = append(d.users, entry{hash: u.TokenSHA256, who: chat.UserPrincipal(u.Name, u.Role, u.Admin)})
	}
	return d, nil
}

// Enabled reports whether any token is configured: then every client,
// on every listener, must present one.
func (d *Directory) Enabled() bool { return d != nil && len(d.users) > 0 }

// Authenticate returns the principal whose token tok is, comparing its
// hash with every user's in constant time.
func (d *Directory) Authenticate(tok string) (chat.Principal, bool) {
	if d == nil || tok == "" {
		return chat.Principal{}, false
	}
	h := HashToken(tok)
	found := -1
	for i := range d.users {
		// No early exit: every hash is compared, and the match is
		// selected without a branch on it.
		eq := subtle.ConstantTimeCompare(h[:], d.users[i].hash[:])
		found = subtle.ConstantTimeSelect(eq, i, found)
	}
	if found < 0 {
		return chat.Principal{}, false
	}
	return d.users[found].who, true
}
