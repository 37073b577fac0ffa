package web

import (
	"context"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
)

// CookieName is the cookie the login form sets.
const CookieName = "opsassist_auth"

// cookieMaxAge is how long the login cookie, and its server-side
// session, last, in seconds.
const cookieMaxAge = 7 * 24 * 3600

// open reports whether a request may pass without credentials: the login
// form and its assets (its style, its string table and script, the icon).
func open(r *http.Request) bool {
	if r.Method == http.MethodGet {
		switch r.URL.Path {
		case "/login", "/static/style.css", "/static/i18n.js", "/static/login.js", "/static/favicon.svg", "/favicon.ico":
			return true
		}
	}
	return r.URL.Path == "/api/login" && r.Method == http.MethodPost
}

// principalKey keys the authenticated principal in a request's context.
type principalKey struct{}

// authRequired reports whether requests need the access token: on a
// public server, and on every server once a token is set (loopback
// included: a same-host proxy or an NPLT listener made public must not
// leave an open door on 127.0.0.1). Only a loopback server without a
// token is open, and every request there is the local operator.
func (s *Server) authRequired() bool { return s.cfg.Public || s.cfg.Users.Enabled() }

// principal returns who a request acts for: the local operator on an
// open server, else the principal authenticate found.
func (s *Server) principal(r *http.Request) chat.Principal {
	if !s.authRequired() {
		return chat.Local()
	}
	who, _ := r.Context().Value(principalKey{}).(chat.Principal)
	return who // zero (sees nothing) on the open routes
}

// authenticate lets a request through when the server is open
// (authRequired), or when it carries the token as a bearer header or a
// live login cookie, and records who it acts for. The page answers an
// unauthenticated browser with a redirect to the login form; everything
// else with 401. A login cookie the server does not know (expired, or
// from before a restart) is cleared in the answer and is not counted as
// a guess: its ids are 256-bit random, nobody guesses one.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if !s.authRequired() {
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
		if who, ok := s.authorized(r); ok {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, who)))
			return
		}
		msg := "access token required: send Authorization: Bearer TOKEN or log in at /login"
		if r.Header.Get("Authorization") != "" {
			s.cfg.Limiter.Fail(remoteAddr(r), s.cfg.Now()) // a wrong token
			msg = "wrong access token (or not a Bearer token)"
		} else if _, err := r.Cookie(CookieName); err == nil {
			clearCookie(w, r) // a stale login: log in again
		}
		if r.Method == http.MethodGet && r.URL.Path == "/" {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="opsassist"`)
		s.writeError(w, r, errorf(http.StatusUnauthorized, api.CodeUnauthorized, msg))
	})
}

// authorized looks the bearer token (the scheme in any case, RFC 9110)
// up in the directory (constant time over every user), or the login
// cookie among the live login sessions, and returns the principal.
func (s *Server) authorized(r *http.Request) (chat.Principal, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return chat.Principal{}, false
		}
		return s.cfg.Users.Authenticate(strings.TrimSpace(tok))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return s.logins.lookup(c.Value, s.cfg.Now())
	}
	return chat.Principal{}, false
}

// loginCookie is the login cookie with value id and max-age seconds
// (negative: delete it), HttpOnly, SameSite=Strict, Secure over TLS.
func loginCookie(r *http.Request, id string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: id, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil}
}

// clearCookie tells the browser to drop its login cookie.
func clearCookie(w http.ResponseWriter, r *http.Request) { http.SetCookie(w, loginCookie(r, "", -1)) }

// tooManyAttempts answers 429 when the client's address sent too many
// wrong tokens lately, over HTTP or NPLT (the limiter is shared).
func (s *Server) tooManyAttempts(w http.ResponseWriter, r *http.Request) bool {
	if !s.cfg.Limiter.Blocked(remoteAddr(r), s.cfg.Now()) {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(authlimit.Window/time.Second)))
	s.writeError(w, r, errorf(http.StatusTooManyRequests, api.CodeTooManyAttempts, authlimit.Message))
	return true
}

// handleLogin checks the token posted by the login form (field "token"),
// opens a login session for the principal it authenticates (the session
// keeps it) and sets its id as the HttpOnly, SameSite=Strict
// login cookie, Secure when served over TLS.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	sr := newStallReader(w, r.Body, s.cfg.StallTimeout)
	defer sr.done()
	r.Body = http.MaxBytesReader(w, sr, 64<<10)
	if err := r.ParseForm(); err != nil {
		sr.abandon()
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, "login wants a form with a token field"))
		return
	}
	if s.tooManyAttempts(w, r) {
		return
	}
	who, ok := s.cfg.Users.Authenticate(r.PostForm.Get("token"))
	if !ok {
		s.cfg.Limiter.Fail(remoteAddr(r), s.cfg.Now())
		s.log.Info("web login refused", zap.String("remote", r.RemoteAddr))
		if wantsHTML(r) {
			http.Redirect(w, r, "/login?failed=1", http.StatusSeeOther)
			return
		}
		s.writeError(w, r, errorf(http.StatusUnauthorized, api.CodeUnauthorized, "wrong access token"))
		return
	}
	id, err := s.logins.start(who, s.cfg.Now())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	http.SetCookie(w, loginCookie(r, id, cookieMaxAge))
	if wantsHTML(r) {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// handleLogout revokes the login session named by the cookie, if any,
// and clears the cookie.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		s.logins.end(c.Value)
	}
	clearCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// wantsHTML reports whether a form post came from a browser page.
func wantsHTML(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") &&
		strings.Contains(r.Header.Get("Accept"), "text/html")
}

// remoteAddr is the client's IP, as the limiter keys it.
func remoteAddr(r *http.Request) netip.Addr { return authlimit.AddrOf(r.RemoteAddr) }
