package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"go.uber.org/zap"
)

// CookieName is the cookie the login form sets.
const CookieName = "opsassist_auth"

// cookieMaxAge is how long the login cookie lasts, in seconds.
const cookieMaxAge = 7 * 24 * 3600

// open reports whether a request may pass without credentials: the login
// form and its assets.
func open(r *http.Request) bool {
	switch {
	case r.URL.Path == "/login" && r.Method == http.MethodGet,
		r.URL.Path == "/api/login" && r.Method == http.MethodPost,
		r.URL.Path == "/static/style.css" && r.Method == http.MethodGet:
		return true
	}
	return false
}

// authenticate lets a request through when the server is not public, or
// when it carries the token as a bearer header or the login cookie. The
// page answers an unauthenticated browser with a redirect to the login
// form; everything else with 401.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if !s.cfg.Public {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if open(r) {
			next.ServeHTTP(w, r)
			return
		}
		if s.tooManyAttempts(w, r) {
			return
		}
		if s.authorized(r) {
			next.ServeHTTP(w, r)
			return
		}
		if hasCredentials(r) {
			s.attempts.fail(r, s.cfg.Now())
		}
		if r.Method == http.MethodGet && r.URL.Path == "/" {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="opsassist"`)
		s.writeError(w, r, errorf(http.StatusUnauthorized, CodeUnauthorized, "access token required: send Authorization: Bearer TOKEN or log in at /login"))
	})
}

// authorized checks the bearer token or the login cookie, in constant
// time.
func (s *Server) authorized(r *http.Request) bool {
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(s.cfg.AuthToken)) == 1
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.cookieValue())) == 1
	}
	return false
}

// hasCredentials reports whether r carries a token or login cookie (a
// wrong one counts as a guess; none at all does not).
func hasCredentials(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return true
	}
	_, err := r.Cookie(CookieName)
	return err == nil
}

// tooManyAttempts answers 429 when the client's address sent too many
// wrong tokens lately.
func (s *Server) tooManyAttempts(w http.ResponseWriter, r *http.Request) bool {
	if !s.attempts.blocked(r, s.cfg.Now()) {
		return false
	}
	w.Header().Set("Retry-After", "60")
	s.writeError(w, r, errorf(http.StatusTooManyRequests, CodeTooManyAttempts, "too many wrong access tokens from this address; try again in a minute"))
	return true
}

// cookieValue is what the login cookie holds: an HMAC of the token, so
// the cookie never carries the token itself.
func (s *Server) cookieValue() string {
	m := hmac.New(sha256.New, []byte(s.cfg.AuthToken))
	m.Write([]byte("opsassist web login"))
	return hex.EncodeToString(m.Sum(nil))
}

// handleLogin checks the token posted by the login form (field "token")
// and sets the HttpOnly, SameSite=Strict login cookie.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "bad_request", "login wants a form with a token field"))
		return
	}
	if s.tooManyAttempts(w, r) {
		return
	}
	tok := r.PostForm.Get("token")
	if s.cfg.AuthToken == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.cfg.AuthToken)) != 1 {
		s.attempts.fail(r, s.cfg.Now())
		s.log.Info("web login refused", zap.String("remote", r.RemoteAddr))
		if wantsHTML(r) {
			http.Redirect(w, r, "/login?failed=1", http.StatusSeeOther)
			return
		}
		s.writeError(w, r, errorf(http.StatusUnauthorized, CodeUnauthorized, "wrong access token"))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: s.cookieValue(), Path: "/", MaxAge: cookieMaxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	if wantsHTML(r) {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// handleLogout clears the login cookie.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// wantsHTML reports whether a form post came from a browser page.
func wantsHTML(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") &&
		strings.Contains(r.Header.Get("Accept"), "text/html")
}
