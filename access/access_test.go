package access

import (
	"errors"
	"strings"
	"testing"

	"opsassist/chat"
)

func user(name, role, tok string) User {
	return User{Name: name, Role: role, TokenSHA256: HashToken(tok)}
}

func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		users []User
		auth  string
		want  error
	}{
		{"local", []User{user("local", "viewer", "a")}, "", ErrReservedName},
		{"admin with auth_token", []User{user("admin", "viewer", "a")}, "root-token", ErrReservedName},
		{"empty name", []User{user("", "viewer", "a")}, "", ErrBadName},
		{"leading dot", []User{user(".x", "viewer", "a")}, "", ErrBadName},
		{"slash", []User{user("a/b", "viewer", "a")}, "", ErrBadName},
		{"space", []User{user("a b", "viewer", "a")}, "", ErrBadName},
		{"65 chars", []User{user(strings.Repeat("a", 65), "viewer", "a")}, "", ErrBadName},
		{"non-ascii", []User{user("zoë", "viewer", "a")}, "", ErrBadName},
		{"duplicate name", []User{user("bob", "viewer", "a"), user("bob", "operator", "b")}, "", ErrDuplicateName},
		{"duplicate name in another case", []User{user("alice", "viewer", "a"), user("Alice", "operator", "b")}, "", ErrDuplicateName},
		{"LOCAL", []User{user("LOCAL", "viewer", "a")}, "", ErrReservedName},
		{"Admin with auth_token", []User{user("Admin", "viewer", "a")}, "root-token", ErrReservedName},
		{"duplicate token", []User{user("alice", "viewer", "same"), user("bob", "operator", "same")}, "", ErrDuplicateToken},
		{"token equals auth_token", []User{user("alice", "viewer", "root-token")}, "root-token", ErrDuplicateToken},
		{"no role", []User{user("alice", "", "a")}, "", ErrNoRole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New(tc.users, tc.auth)
			if !errors.Is(err, tc.want) || d != nil {
				t.Fatalf("New = %v, %v; want %v", d, err, tc.want)
			}
			if strings.Contains(err.Error(), "root-token") || strings.Contains(err.Error(), "same") {
				t.Errorf("error %q shows a token", err)
			}
		})
	}
}

func TestNewAccepts(t *testing.T) {
	for _, name := range []string{"a", "Alice", "bob.smith", "ci_bot-2", "0", strings.Repeat("x", 64), "admin"} {
		if _, err := New([]User{user(name, "viewer", "t")}, ""); err != nil {
			t.Errorf("New(%q): %v", name, err)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	d, err := New([]User{
		user("alice", chat.RoleOperator, "alice-token"),
		{Name: "bob", Role: chat.RoleViewer, TokenSHA256: HashToken("bob-token")},
		{Name: "carol", Role: "deployer", Admin: true, TokenSHA256: HashToken("carol-token")},
	}, "root-token")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Enabled() {
		t.Fatal("not enabled")
	}
	for _, tc := range []struct {
		tok  string
		want chat.Principal
		ok   bool
	}{
		{"alice-token", chat.UserPrincipal("alice", chat.RoleOperator, false), true},
		{"bob-token", chat.UserPrincipal("bob", chat.RoleViewer, false), true},
		{"carol-token", chat.UserPrincipal("carol", "deployer", true), true},
		{"root-token", chat.TokenPrincipal("root-token", true), true},
		{"", chat.Principal{}, false},
		{"alice-token ", chat.Principal{}, false},
		{"ALICE-TOKEN", chat.Principal{}, false},
		{"nobody", chat.Principal{}, false},
	} {
		got, ok := d.Authenticate(tc.tok)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Authenticate(%q) = %+v, %v; want %+v, %v", tc.tok, got, ok, tc.want, tc.ok)
		}
	}
	// The auth_token holder keeps today's owner id and is the admin.
	p, _ := d.Authenticate("root-token")
	if p.Name != chat.AdminName || p.Role != chat.RoleAdmin || !p.Admin {
		t.Errorf("auth_token principal = %+v", p)
	}
}

func TestEmptyDirectory(t *testing.T) {
	var nilDir *Directory
	for _, d := range []*Directory{nilDir, {}, mustNew(t, nil, "")} {
		if d.Enabled() {
			t.Error("empty directory enabled")
		}
		if _, ok := d.Authenticate(""); ok {
			t.Error("empty token authenticated")
		}
		if _, ok := d.Authenticate("x"); ok {
			t.Error("token authenticated by an empty directory")
		}
	}
	d := mustNew(t, nil, "only")
	if !d.Enabled() {
		t.Error("auth_token alone: not enabled")
	}
	if p, ok := d.Authenticate("only"); !ok || p != chat.TokenPrincipal("only", true) {
		t.Errorf("auth_token alone: %+v %v", p, ok)
	}
}

func mustNew(t *testing.T, users []User, auth string) *Directory {
	t.Helper()
	d, err := New(users, auth)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
