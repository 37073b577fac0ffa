package web

import (
	"net/http"

	"opsassist/api"
)

// mcpHandler serves /mcp (Config.MCP) behind the server's own checks —
// the Host check of a loopback server, cross-origin protection, the
// bearer token — and these: a token is required as a bearer header, the
// login cookie is not accepted (an MCP client is a program configured
// with a token; a request that rides on the browser's cookie is the
// kind cross-site attacks forge, and the page never needs /mcp); the
// request body must keep arriving (StallTimeout per read, as for every
// body); and each write of the response stream may block at most
// StallTimeout, the stream as a whole runs as long as the session does.
func (s *Server) mcpHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.authRequired() && r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="opsassist"`)
			s.writeError(w, r, errorf(http.StatusUnauthorized, api.CodeUnauthorized,
				"/mcp takes the access token as Authorization: Bearer TOKEN; the login cookie is not accepted"))
			return
		}
		sr := newStallReader(w, r.Body, s.cfg.StallTimeout)
		defer sr.done()
		r.Body = eofDone{sr}
		sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), stall: s.cfg.StallTimeout}
		h.ServeHTTP(sw, r)
	})
}

// eofDone clears a stallReader's deadline as soon as the body ends (or
// fails): the handler answers with a stream that may outlive any read
// deadline.
type eofDone struct{ *stallReader }

func (b eofDone) Read(p []byte) (int, error) {
	n, err := b.stallReader.Read(p)
	if err != nil {
		b.done()
	}
	return n, err
}
