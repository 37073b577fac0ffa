package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/internal/testkit"
)

func public(c *Config, _ *chat.Config) { c.Public, c.AuthToken = true, "s3cret-token" }

func TestPublicServerNeedsToken(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	for _, p := range []string{"/api/health", "/api/sessions", "/api/system", "/api/files/download/abc", "/static/app.js"} {
		res, body := e.do(t, "GET", p, nil)
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
		if res.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("%s: no WWW-Authenticate", p)
		}
	}
	res, body := e.do(t, "POST", "/api/chat", `{"message":"hi"}`)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if !strings.Contains(string(body), "access token required") {
		t.Errorf("no token: %s", body)
	}
	res, body = e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer wrong")
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if !strings.Contains(string(body), "wrong access token") {
		t.Errorf("a wrong token is told so: %s", body)
	}
	res, body = e.do(t, "GET", "/api/health", nil, "Authorization", "Basic czNjcmV0LXRva2Vu")
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if res, _ := e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token"); res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}

	// The page sends a browser to the login form, which sets the cookie.
	noRedirect := *e.ts.Client()
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := noRedirect.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Fatalf("page: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := e.do(t, "GET", "/login", nil); res.StatusCode != 200 {
		t.Fatal("login page", res.StatusCode)
	}
	res, body = e.do(t, "POST", "/api/login", url.Values{"token": {"nope"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	res, _ = e.do(t, "POST", "/api/login", url.Values{"token": {"s3cret-token"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == CookieName {
			cookie = c
		}
	}
	if res.StatusCode != 200 || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("login: %d %+v", res.StatusCode, cookie)
	}
	if strings.Contains(cookie.Value, "s3cret") {
		t.Fatal("the cookie carries the token")
	}
	res, _ = e.do(t, "GET", "/", nil, "Cookie", cookie.Name+"="+cookie.Value)
	if res.StatusCode != 200 {
		t.Fatalf("page with cookie: %d", res.StatusCode)
	}
	res, body = e.do(t, "GET", "/api/sessions", nil, "Cookie", cookie.Name+"=forged")
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
}

func TestLoopbackServerIsOpen(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	if res, _ := e.do(t, "GET", "/api/health", nil); res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
}

func TestPublicWithoutTokenRefused(t *testing.T) {
	_, err := New(Config{Chat: newEnv(t, testkit.Scripted{}).svc, Tokens: newEnv(t, testkit.Scripted{}).tokens, Public: true})
	if !errors.Is(err, ErrNoToken) {
		t.Fatalf("err %v", err)
	}
}

// TestWrongTokensAreThrottled: after authlimit.MaxFailures wrong tokens in a minute
// an address gets 429, even with the right token, until the minute ends;
// requests without credentials do not count.
func TestWrongTokensAreThrottled(t *testing.T) {
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e := newEnv(t, testkit.Scripted{}, public, func(c *Config, _ *chat.Config) { c.Now = clock })
	for range 2 * authlimit.MaxFailures {
		e.do(t, "GET", "/api/health", nil) // no credentials: not a guess
	}
	for i := range authlimit.MaxFailures {
		var res *http.Response
		if i%2 == 0 {
			res, _ = e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer wrong")
		} else {
			res, _ = e.do(t, "POST", "/api/login", url.Values{"token": {"wrong"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
		}
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, res.StatusCode)
		}
	}
	res, body := e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token")
	wantError(t, res, body, http.StatusTooManyRequests, api.CodeTooManyAttempts)
	res, body = e.do(t, "POST", "/api/login", url.Values{"token": {"s3cret-token"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	wantError(t, res, body, http.StatusTooManyRequests, api.CodeTooManyAttempts)
	mu.Lock()
	now = now.Add(authlimit.Window)
	mu.Unlock()
	if res, _ := e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token"); res.StatusCode != 200 {
		t.Fatalf("after the window: %d", res.StatusCode)
	}
}

// TestStaleCookieIsNotAGuess: a login cookie the server does not know
// (its sessions were lost in a restart) gets 401 with the cookie cleared,
// the page a redirect to the login form, and never counts as a wrong
// token: a tab polling with it does not lock its address out.
func TestStaleCookieIsNotAGuess(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	stale := CookieName + "=" + strings.Repeat("ab", 32)
	for i := range 3 * authlimit.MaxFailures {
		res, body := e.do(t, "GET", "/api/system", nil, "Cookie", stale)
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
		var cleared bool
		for _, c := range res.Cookies() {
			cleared = cleared || c.Name == CookieName && c.MaxAge < 0 && c.Value == "" && c.HttpOnly && c.SameSite == http.SameSiteStrictMode
		}
		if !cleared {
			t.Fatalf("request %d: the stale cookie is not cleared: %v", i, res.Header["Set-Cookie"])
		}
	}
	if res, _ := e.do(t, "GET", "/", nil, "Cookie", stale); res.Request.URL.Path != "/login" {
		t.Fatalf("page with a stale cookie: %d at %s", res.StatusCode, res.Request.URL)
	}
	if res, _ := e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token"); res.StatusCode != 200 {
		t.Fatalf("the right token after a stale cookie: %d", res.StatusCode)
	}
	e.login(t, "s3cret-token")
}

// withTokenOnLoopback sets a token on a loopback (not public) server.
func withTokenOnLoopback(c *Config, _ *chat.Config) { c.AuthToken = "s3cret-token" }

// TestTokenOnLoopbackIsRequired: with a token set, a loopback server
// demands it too (a same-host proxy forwards to it), for any Host; the
// token holder is the admin principal, not the local operator.
func TestTokenOnLoopbackIsRequired(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withTokenOnLoopback)
	res, body := e.do(t, "GET", "/api/sessions", nil)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if res, _ := e.do(t, "GET", "/", nil); res.Request.URL.Path != "/login" {
		t.Fatalf("page without the token: %d at %s", res.StatusCode, res.Request.URL)
	}
	res, _ = e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token", "Host", "ops.example.com")
	if res.StatusCode != 200 {
		t.Fatalf("token through a proxy's Host: %d", res.StatusCode)
	}
	// A conversation of the local operator's is not the token holder's.
	local := e.svc.NewSession("cli", chat.Local())
	if err := local.Chat(t.Context(), "mine", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	res, body = e.do(t, "GET", "/api/sessions", nil, "Authorization", "Bearer s3cret-token")
	if res.StatusCode != 200 || strings.Contains(string(body), local.ID()) {
		t.Fatalf("token holder on loopback sees the local operator's conversation: %d %s", res.StatusCode, body)
	}
}
