package web

import (
	"io"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/server/chat"
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
}

func (g *guardWriter) WriteHeader(status int) {
	if g.wrote {
		return
	}
	g.wrote = true
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
		g := &guardWriter{ResponseWriter: w}
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
				writeJSON(w, http.StatusInternalServerError, errorf(http.StatusInternalServerError, chat.CodeInternal, "internal error"))
				return
			}
			g.finish()
		}()
		next.ServeHTTP(g, r)
	})
}
