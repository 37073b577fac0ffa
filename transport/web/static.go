package web

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
)

// static holds the web client: plain HTML, CSS and JavaScript, no build
// step.
//
//go:embed static
var static embed.FS

// contentSecurityPolicy allows the page's own scripts, styles and API
// only: model output rendered into the page can never load or run
// anything.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// securityHeaders are set on the page and the login form.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
}

// page serves the web client at "/".
// A request with a live login cookie gets the page with
// <body data-login="cookie">, so the page shows its logout button.
func (s *Server) page() http.Handler {
	plain := s.htmlFile("static/index.html")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(CookieName)
		if err != nil {
			plain.ServeHTTP(w, r)
			return
		}
		if _, ok := s.logins.lookup(c.Value, s.cfg.Now()); !ok {
			plain.ServeHTTP(w, r)
			return
		}
		b, err := static.ReadFile("static/index.html")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		securityHeaders(w.Header())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(bytes.Replace(b, []byte("<body>"), []byte(`<body data-login="cookie">`), 1))
	})
}

// handleLoginPage serves the login form of a public server.
func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	s.htmlFile("static/login.html").ServeHTTP(w, r)
}

// htmlFile serves one embedded HTML file with the security headers.
func (s *Server) htmlFile(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := static.ReadFile(name)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		securityHeaders(w.Header())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	})
}

// assets serves /static/: the client's scripts and styles.
func (s *Server) assets() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header())
		files.ServeHTTP(w, r)
	})
}

// handleFavicon serves GET /favicon.ico, which browsers and tools ask for
// without reading the page's <link rel="icon">: the page's SVG icon,
// as image/svg+xml.
func (s *Server) handleFavicon(w http.ResponseWriter, r *http.Request) {
	b, err := static.ReadFile("static/favicon.svg")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	securityHeaders(w.Header())
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(b)
}
