package web

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
)

// guardWriter turns plain-text error responses into JSON errors and
// records whether the response has started, for panic recovery. It keeps
// io.ReaderFrom (sendfile for downloads) and Unwrap (Flush, deadlines)
// of the writer it wraps.
type guardWriter struct {
	http.ResponseWriter
	status    int
	wrote     bool
	intercept int // status of a plain-text error being rewritten
	text      strings.Builder
	body      *bodyWatch    // the request body; nil if there is none
	stall     time.Duration // Config.StallTimeout
}

func (g *guardWriter) WriteHeader(status int) {
	if g.wrote {
		return
	}
	g.wrote = true
	g.refuseBody()
	g.status = status
	ct := g.Header().Get("Content-Type")
	if status >= 400 && (ct == "" || strings.HasPrefix(ct, "text/plain")) {
		g.intercept = status
		return // written as JSON by finish
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *guardWriter) Write(b []byte) (int, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	if g.intercept != 0 {
		if g.text.Len() < 512 {
			g.text.Write(b)
		}
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// ReadFrom lets io.Copy reach the server's sendfile path.
func (g *guardWriter) ReadFrom(r io.Reader) (int64, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	if g.intercept != 0 {
		return io.Copy(io.Discard, r)
	}
	return io.Copy(g.ResponseWriter, r)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (g *guardWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// bodyWatch records whether a request body was read to its end.
type bodyWatch struct {
	io.ReadCloser
	eof atomic.Bool
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof.Store(true)
	}
	return n, err
}

// refuseBody is called before any response is written. If part of the
// request body is unread (an auth refusal, a 413, a method error, a
// static file asked for with a body ...), the handler is done with it:
// net/http lets no handler read a body once the response has begun
// (HTTP/1). net/http would otherwise read and discard
// up to 256 KiB of it first, with no deadline, so a client declaring a
// Content-Length and sending nothing would hold the connection and its
// fd forever. "Connection: close" skips that drain; the read deadline
// bounds the one net/http still does when it closes the body after the
// reply (it lets an honest client's small body arrive, so closing does
// not reset the connection under its reply). A handler that gave up on
// its body already (stallReader.abandon) has done both.
func (g *guardWriter) refuseBody() {
	if g.body == nil || g.body.eof.Load() || g.Header().Get("Connection") == "close" {
		return
	}
	g.Header().Set("Connection", "close")
	http.NewResponseController(g.ResponseWriter).SetReadDeadline(time.Now().Add(g.stall)) // not supported by test recorders
}

// finish writes an intercepted plain-text error as JSON.
func (g *guardWriter) finish() {
	if g.intercept == 0 {
		return
	}
	msg := strings.TrimSpace(g.text.String())
	if msg == "" {
		msg = http.StatusText(g.intercept)
	}
	h := g.Header()
	for _, k := range []string{"Content-Length", "Content-Disposition", "Etag", "Last-Modified", "Cache-Control"} {
		h.Del(k)
	}
	writeJSON(g.ResponseWriter, g.intercept, errorf(g.intercept, codeForStatus(g.intercept), msg))
}

// guard wraps every request: JSON for net/http's own errors, and a panic
// becomes a logged 500 JSON error without a stack trace for the client.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := &guardWriter{ResponseWriter: w, stall: s.cfg.StallTimeout}
		if r.Body != nil && r.Body != http.NoBody {
			g.body = &bodyWatch{ReadCloser: r.Body}
			r = r.WithContext(r.Context()) // a copy: net/http keeps its own Body
			r.Body = g.body
		}
		start := time.Now()
		defer func() {
			if ce := s.log.Check(zap.DebugLevel, "http request"); ce != nil {
				ce.Write(zap.String("method", r.Method), zap.String("path", r.URL.Path), zap.Int("status", g.status),
					zap.Duration("took", time.Since(start)), zap.String("remote", r.RemoteAddr))
			}
		}()
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("handler panicked", zap.String("method", r.Method), zap.String("path", r.URL.Path),
					zap.Any("panic", p), zap.Stack("stack"))
				if g.wrote && g.intercept == 0 {
					panic(http.ErrAbortHandler) // mid-response: cut the connection
				}
				g.intercept, g.status = 0, http.StatusInternalServerError
				g.refuseBody()
				writeJSON(w, http.StatusInternalServerError, errorf(http.StatusInternalServerError, api.CodeInternal, "internal error"))
				return
			}
			if !g.wrote {
				g.refuseBody() // net/http answers 200 with no body; do not wait for the request's
			}
			g.finish()
		}()
		next.ServeHTTP(g, r)
	})
}
