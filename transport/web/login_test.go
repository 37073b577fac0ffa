package web

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/tokens"
)

// login posts the token to the login form and returns the cookie set.
func (e *testEnv) login(t *testing.T, token string) *http.Cookie {
	t.Helper()
	res, _ := e.do(t, "POST", "/api/login", url.Values{"token": {token}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	for _, c := range res.Cookies() {
		if c.Name == CookieName && res.StatusCode == 200 {
			return c
		}
	}
	t.Fatalf("login: %d, no cookie", res.StatusCode)
	return nil
}

// TestBearerSchemeAnyCase: the Authorization scheme is case-insensitive.
func TestBearerSchemeAnyCase(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	for _, h := range []string{"Bearer s3cret-token", "bearer s3cret-token", "BEARER s3cret-token", "BeArEr   s3cret-token"} {
		if res, _ := e.do(t, "GET", "/api/health", nil, "Authorization", h); res.StatusCode != 200 {
			t.Errorf("%q: %d", h, res.StatusCode)
		}
	}
	for _, h := range []string{"Bearers3cret-token", "Basic s3cret-token", "s3cret-token"} {
		res, body := e.do(t, "GET", "/api/health", nil, "Authorization", h)
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	}
}

// TestLogoutRevokesCookie: the cookie names a server-side session;
// after logout the same cookie is refused, and the cookie value is not
// derived from the token (two logins get different values).
func TestLogoutRevokesCookie(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	c := e.login(t, "s3cret-token")
	if c2 := e.login(t, "s3cret-token"); c2.Value == c.Value {
		t.Fatal("two logins share a cookie value")
	}
	cookie := c.Name + "=" + c.Value
	if res, _ := e.do(t, "GET", "/api/sessions", nil, "Cookie", cookie); res.StatusCode != 200 {
		t.Fatalf("with cookie: %d", res.StatusCode)
	}
	if res, _ := e.do(t, "POST", "/api/logout", nil, "Cookie", cookie); res.StatusCode != 200 {
		t.Fatalf("logout: %d", res.StatusCode)
	}
	res, body := e.do(t, "GET", "/api/sessions", nil, "Cookie", cookie)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
}

// TestLoginSessionsExpireAndAreCapped: a cookie past its max age is
// refused, and at most MaxLogins sessions live at once (the oldest goes).
func TestLoginSessionsExpireAndAreCapped(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public, func(c *Config, _ *chat.Config) { c.MaxLogins = 3 })
	first := e.login(t, "s3cret-token")
	e.clock.Add(time.Second)
	var later []*http.Cookie
	for range 3 {
		later = append(later, e.login(t, "s3cret-token"))
	}
	if n := e.srv.logins.live(); n != 3 {
		t.Fatalf("%d live logins, cap 3", n)
	}
	res, body := e.do(t, "GET", "/api/health", nil, "Cookie", first.Name+"="+first.Value)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if res, _ := e.do(t, "GET", "/api/health", nil, "Cookie", later[2].Name+"="+later[2].Value); res.StatusCode != 200 {
		t.Fatalf("newest login refused: %d", res.StatusCode)
	}
	e.clock.Add(cookieMaxAge * time.Second)
	res, body = e.do(t, "GET", "/api/health", nil, "Cookie", later[2].Name+"="+later[2].Value)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
}

// TestTokenHolderSeesOnlyItsConversations: on a public server, a bearer
// client neither lists, reads, deletes nor downloads from a conversation
// another principal (here the local operator) owns.
func TestTokenHolderSeesOnlyItsConversations(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	other := e.svc.NewSession("cli", chat.Local())
	if err := other.Chat(context.Background(), "the operator's", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("secret"), 0o600)
	tok, _ := e.tokens.Issue(tokens.Token{Path: path, Filename: "f.txt", Size: 6, SessionID: other.ID()}, e.clock.Now())
	auth := []string{"Authorization", "Bearer s3cret-token"}
	for _, req := range [][2]string{
		{"GET", "/api/sessions/" + other.ID()},
		{"GET", "/api/sessions/" + other.ID()[:8] + "/history"},
		{"DELETE", "/api/sessions/" + other.ID()},
		{"GET", "/api/files/download/" + tok.ID},
	} {
		res, body := e.do(t, req[0], req[1], nil, auth...)
		wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	}
	res, body := e.do(t, "GET", "/api/sessions", nil, auth...)
	if res.StatusCode != 200 || strings.Contains(string(body), other.ID()) {
		t.Fatalf("list: %d %s", res.StatusCode, body)
	}
	if _, err := e.svc.NewSession("cli", chat.Local()).Switch(other.ID()); err != nil {
		t.Fatal("the conversation was deleted")
	}
}
