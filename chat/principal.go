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
	// Name is the user's name as configured (users:), "admin" for the
	// auth_token, LocalID for the local operator: what the audit log
	// records and the admin's audit query filters by.
	Name string
	// Role is the user's role (roles:, or a built-in one: RoleAdmin,
	// RoleOperator, RoleViewer), which the permission policy reads for
	// every tool call of the user's turns.
	Role string
	// Admin also sees conversations recorded before conversations had
	// owners (owner ""), and may read the audit log. The admin role
	// (and a configured role marked admin) is Admin.
	Admin bool
}

// Built-in roles (tools/policy defines what each may do).
const (
	RoleAdmin    = "admin"
	RoleOperator = "operator"
	RoleViewer   = "viewer"
)

// AdminName is the user name of the single auth_token's holder.
const AdminName = "admin"

// Local is the local operator, an admin who sees every conversation: a
// client on a loopback listener of a server without tokens.
func Local() Principal { return Principal{ID: LocalID, Name: LocalID, Role: RoleAdmin, Admin: true} }

// principalKey keys the HMAC that derives principal ids from tokens, so
// an id is not a bare hash anyone could look up.
const principalKey = "opsassist principal v1"

// TokenPrincipal is the principal authenticated by the single
// auth_token: the user AdminName with the admin role when admin. Its ID
// is derived from the token (HMAC-SHA-256, first 128 bits, hex) and is
// stable across restarts; the token itself cannot be read back from it.
func TokenPrincipal(token string, admin bool) Principal {
	m := hmac.New(sha256.New, []byte(principalKey))
	m.Write([]byte(token))
	p := Principal{ID: "t-" + hex.EncodeToString(m.Sum(nil)[:16]), Name: AdminName, Role: RoleOperator}
	if admin {
		p.Role, p.Admin = RoleAdmin, true
	}
	return p
}

// UserPrincipal is the principal of a configured user (users:): its ID
// is "u-" and the name, stable across token rotation.
func UserPrincipal(name, role string, admin bool) Principal {
	return Principal{ID: "u-" + name, Name: name, Role: role, Admin: admin}
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
