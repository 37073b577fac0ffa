package web

import (
	"net"
	"net/http"
	"strings"

	"opsassist/api"
)

// checkHost refuses, on a loopback server, requests whose Host header is
// not a loopback name: a web page on another site cannot reach the
// server through a DNS name that resolves to 127.0.0.1 (DNS rebinding).
// A server with a token is protected by it instead (so a same-host proxy
// may forward any Host).
func (s *Server) checkHost(next http.Handler) http.Handler {
	if s.authRequired() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			s.writeError(w, r, errorf(http.StatusForbidden, api.CodeForbidden,
				"this server listens on loopback only; reach it as localhost or 127.0.0.1"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine's
// loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
