package mcpserver

import (
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/chat"
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// Handler serves streamable HTTP MCP; principal says who an
// authenticated request acts for (the HTTP server authenticates before
// the handler runs). A session belongs to the principal of the request
// that opened it: a request of the session for anyone else is refused
// (403). Request bodies are capped at MaxBody (the SDK's check); a
// request from a browser page of another origin is refused (403)
// whatever its method; sessions are capped at MaxSessions and at
// MaxSessionsPerUser per principal (503) and closed after
// SessionTimeout without a request. The Host check against DNS
// rebinding is the HTTP server's (transport/web checkHost, the one
// owner of that rule): the SDK's own, which judges by the connection's
// local address and so refuses a same-host reverse proxy, is off.
//
// Ending a session — DELETE, SessionTimeout, Shutdown — cancels its
// calls first, and a call is cancelled when the HTTP request that
// carried it goes away, so neither waits for a call nobody will read.
func (s *Server) Handler(principal func(*http.Request) chat.Principal) http.Handler {
	srv := s.newMCPServer(func(ss *mcp.ServerSession) *session { return s.httpSession(ss.ID()) })
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		SessionTimeout:             s.cfg.SessionTimeout,
		MaxRequestBodyBytes:        s.cfg.MaxBody,
		DisableLocalhostProtection: true,
	})
	return &httpHandler{s: s, srv: srv, sdk: sdk, principal: principal, origin: http.NewCrossOriginProtection()}
}

// httpHandler is Handler's http.Handler.
type httpHandler struct {
	s         *Server
	srv       *mcp.Server
	sdk       http.Handler
	principal func(*http.Request) chat.Principal
	origin    *http.CrossOriginProtection
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Cross-origin protection for every method: the SDK's GET stream is
	// no less a session's than its POSTs.
	probe := r.WithContext(r.Context())
	probe.Method = http.MethodPost
	if err := h.origin.Check(probe); err != nil {
		writeError(w, http.StatusForbidden, "cross-origin request refused: "+err.Error())
		return
	}
	who := h.principal(r)
	// callHeader is the server's to set: a client's is dropped.
	r.Header = r.Header.Clone()
	r.Header.Del(callHeader)
	if id := r.Header.Get(sessionHeader); id != "" {
		st := h.s.httpSession(id)
		switch {
		case st == nil:
			writeError(w, http.StatusNotFound, "unknown or expired MCP session; initialize a new one")
			return
		case st.who.ID != who.ID:
			writeError(w, http.StatusForbidden, "this MCP session belongs to another user")
			return
		}
		ended := false
		switch r.Method {
		case http.MethodDelete:
			// Its calls first, since the SDK's close waits for them —
			// but only when the SDK will accept the DELETE: one it
			// refuses (400: an unsupported Mcp-Protocol-Version) keeps
			// the session, which must keep working.
			if ended = h.sdkWouldServe(r); ended {
				st.end()
			}
		case http.MethodPost:
			token := randomHex(8)
			r.Header.Set(callHeader, token)
			defer st.track(token, r.Context())()
		}
		h.sdk.ServeHTTP(w, r)
		if r.Method == http.MethodDelete && !h.live(id) {
			if !ended {
				st.end() // closed after all: its context goes too
			}
			h.s.unbind(id) // now, not when the watcher sees it: room for a new session at once
		}
		return
	}
	if r.Method != http.MethodPost {
		h.sdk.ServeHTTP(w, r) // the SDK's answer: a session id is required
		return
	}
	switch h.s.reserve(who.ID) {
	case reserveFull:
		writeError(w, http.StatusServiceUnavailable, "too many MCP sessions open; close one (DELETE /mcp) or wait for idle ones to expire")
		return
	case reserveUserFull:
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%s has %d MCP sessions open, the most one user may; close one (DELETE /mcp) or wait for idle ones to expire", userName(who), h.s.cfg.MaxSessionsPerUser))
		return
	}
	st := newSession(h.s.base, who, h.s.cfg.MaxCallsPerSession)
	bw := &bindWriter{ResponseWriter: w, bind: func(id string) { h.s.bind(id, st) }}
	defer func() { h.s.opened(h.srv, bw.id, st) }() // even if the SDK panics
	h.sdk.ServeHTTP(bw, r)
}

// live reports whether the SDK still has session id.
func (h *httpHandler) live(id string) bool {
	for ss := range h.srv.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// sdkWouldServe reports whether the SDK passes r's session request on
// to its method: the SDK's own checks before the method (its Host and
// origin checks, the Mcp-Protocol-Version it supports), asked of the
// SDK itself with a bodiless OPTIONS copy of r, which passes them only
// to be answered 405 Method Not Allowed. The SDK stays the one owner
// of those rules; should it ever answer OPTIONS otherwise, this says
// false and the session's context ends only once the SDK has closed it.
func (h *httpHandler) sdkWouldServe(r *http.Request) bool {
	probe := r.Clone(r.Context())
	probe.Method = http.MethodOptions
	probe.Body, probe.ContentLength = http.NoBody, 0
	sw := &statusWriter{header: http.Header{}}
	h.sdk.ServeHTTP(sw, probe)
	return sw.status == http.StatusMethodNotAllowed
}

// statusWriter is an http.ResponseWriter that keeps the status only.
type statusWriter struct {
	header http.Header
	status int
}

func (w *statusWriter) Header() http.Header { return w.header }

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// writeError answers a refused request in plain text, as the SDK's
// own refusals are (the HTTP server turns both into its JSON errors).
func writeError(w http.ResponseWriter, status int, msg string) { http.Error(w, msg, status) }

// bindWriter binds the session the SDK opens to its state as the
// response's header goes out, before the client can learn its id.
type bindWriter struct {
	http.ResponseWriter
	bind  func(id string)
	id    string
	bound bool
}

func (b *bindWriter) WriteHeader(status int) {
	if !b.bound {
		b.bound = true
		if id := b.Header().Get(sessionHeader); id != "" {
			b.id = id
			b.bind(id)
		}
	}
	b.ResponseWriter.WriteHeader(status)
}

func (b *bindWriter) Write(p []byte) (int, error) {
	if !b.bound {
		b.WriteHeader(http.StatusOK)
	}
	return b.ResponseWriter.Write(p)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (b *bindWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// httpSession returns the state of HTTP session id; nil if unknown.
func (s *Server) httpSession(id string) *session {
	if id == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byHTTP[id]
}

// What reserve found.
const (
	reserved        = iota // room was reserved
	reserveFull            // MaxSessions, or the server is closed
	reserveUserFull        // the principal's MaxSessionsPerUser
)

// reserve reserves room for a new HTTP session of principal id.
func (s *Server) reserve(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.byHTTP)+s.reserved >= s.cfg.MaxSessions {
		return reserveFull
	}
	n := s.reservedBy[id]
	for _, st := range s.byHTTP {
		if st.who.ID == id {
			n++
		}
	}
	if n >= s.cfg.MaxSessionsPerUser {
		return reserveUserFull
	}
	s.reserved++
	s.reservedBy[id]++
	return reserved
}

// bind records the state of a new HTTP session.
func (s *Server) bind(id string, st *session) {
	s.mu.Lock()
	s.byHTTP[id] = st
	s.mu.Unlock()
}

// opened ends the reservation of the request that opened session id
// ("": none was opened) with state st and watches the session: its
// calls are cancelled and its state goes when it closes (DELETE,
// SessionTimeout, Shutdown).
func (s *Server) opened(srv *mcp.Server, id string, st *session) {
	s.mu.Lock()
	s.reserved--
	if s.reservedBy[st.who.ID]--; s.reservedBy[st.who.ID] <= 0 {
		delete(s.reservedBy, st.who.ID)
	}
	s.mu.Unlock()
	if id == "" {
		st.end()
		return
	}
	var ss *mcp.ServerSession
	for c := range srv.Sessions() {
		if c.ID() == id {
			ss = c
			break
		}
	}
	s.mu.Lock()
	if ss == nil || s.closed {
		s.mu.Unlock()
		st.end()
		if ss != nil {
			ss.Close()
		}
		s.unbind(id)
		return
	}
	s.live[ss] = struct{}{}
	s.wg.Add(1) // under the lock: Shutdown's Wait comes after
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ss.Wait()
		st.end()
		s.untrack(ss)
		s.unbind(id)
	}()
}

func (s *Server) unbind(id string) {
	s.mu.Lock()
	delete(s.byHTTP, id)
	s.mu.Unlock()
}
