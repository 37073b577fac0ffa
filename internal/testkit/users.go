package testkit

import (
	"testing"

	"opsassist/access"
	"opsassist/chat"
)

// Tokens of the users TwoUsers knows.
const (
	AliceToken = "alice-token-0123456789"
	BobToken   = "bob-token-0123456789"
)

// TwoUsers is a directory of alice (operator, AliceToken), bob (viewer,
// BobToken) and, if adminToken is set, the auth_token's admin.
func TwoUsers(t testing.TB, adminToken string) *access.Directory {
	t.Helper()
	d, err := access.New([]access.User{
		{Name: "alice", Role: chat.RoleOperator, TokenSHA256: access.HashToken(AliceToken)},
		{Name: "bob", Role: chat.RoleViewer, TokenSHA256: access.HashToken(BobToken)},
	}, adminToken)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
