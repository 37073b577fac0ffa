package web

import (
	"bytes"
	"net/http"
	"testing"

	"opsassist/api"
	"opsassist/internal/testkit"
)

// TestFavicon: GET /favicon.ico is the page's SVG icon as image/svg+xml,
// on a loopback server and, without a token, on a public one (the login
// form shows it too); other methods are refused.
func TestFavicon(t *testing.T) {
	want, err := static.ReadFile("static/favicon.svg")
	if err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string][]envOpt{"loopback": nil, "public": {public}} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, testkit.Scripted{}, opts...)
			res, body := e.do(t, "GET", "/favicon.ico", nil)
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" || !bytes.Equal(body, want) {
				t.Fatalf("%d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("headers %v", res.Header)
			}
			if res, _ := e.do(t, "POST", "/favicon.ico", "x"); res.StatusCode != http.StatusMethodNotAllowed && res.StatusCode != http.StatusUnauthorized {
				t.Errorf("POST /favicon.ico: %d", res.StatusCode)
			}
		})
	}
}

// TestLoginPageAssetsOpen: a public server's login form loads its style,
// string table and icon without a token; the page's other scripts stay
// closed.
func TestLoginPageAssetsOpen(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public)
	for _, p := range []string{"/login", "/static/style.css", "/static/i18n.js", "/static/login.js", "/static/favicon.svg"} {
		if res, body := e.do(t, "GET", p, nil); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", p, res.StatusCode, body)
		}
	}
	for _, p := range []string{"/static/app.js", "/static/cards.js", "/static/i18n.js/x"} {
		res, body := e.do(t, "GET", p, nil)
		wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	}
}
