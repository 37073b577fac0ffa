package web

import (
	"strings"
	"testing"

	"opsassist/internal/testkit"
)

// TestPageMarksCookieLogin: the page says data-login="cookie" (its
// logout button shows) only to a request with a live login cookie; a
// bogus, huge or revoked cookie gets the plain page with its security
// headers, and the server keeps serving.
func TestPageMarksCookieLogin(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	c := e.login(t, "s3cret-token")
	cookie := c.Name + "=" + c.Value
	res, body := e.do(t, "GET", "/", nil, "Cookie", cookie)
	if res.StatusCode != 200 || !strings.Contains(string(body), `<body data-login="cookie">`) ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("logged in: %d %q csp %q", res.StatusCode, body[:min(len(body), 200)], res.Header.Get("Content-Security-Policy"))
	}
	if res, _ := e.do(t, "POST", "/api/logout", nil, "Cookie", cookie); res.StatusCode != 200 {
		t.Fatalf("logout: %d", res.StatusCode)
	}
	for _, bad := range []string{cookie, c.Name + "=bogus", c.Name + "=" + strings.Repeat("x", 4000), c.Name + "=%00%ff"} {
		res, body := e.do(t, "GET", "/", nil, "Cookie", bad, "Authorization", "Bearer s3cret-token")
		if res.StatusCode != 200 || strings.Contains(string(body), "data-login") {
			t.Errorf("cookie %.40q: %d, marked %v", bad, res.StatusCode, strings.Contains(string(body), "data-login"))
		}
	}
}
