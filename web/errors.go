package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/server/chat"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// Error codes of the JSON error body, besides those of server/chat.
const (
	CodeBadJSON       = "bad_json"
	CodeUnauthorized  = "unauthorized"
	CodeForbidden     = "forbidden"
	CodeTooLarge      = "too_large"
	CodeExpired       = "expired"
	CodeFileChanged   = "file_changed"
	CodeBadRange      = "range_not_satisfiable"
	CodeNotAllowed    = "method_not_allowed"
	CodeUploadInvalid = "upload_invalid"
)

// apiError is the body of every error response: {"code", "message"}.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// errorf builds an apiError.
func errorf(status int, code, msg string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg}
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"code":"internal","message":"encoding the reply failed"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError sends err as a JSON error. Errors of the chat core, the
// history store and the upload store get their own status and code;
// anything else is a 500 whose detail is logged, not sent.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := s.classify(err)
	if ae.Status >= 500 {
		s.log.Error("request failed", zap.String("method", r.Method), zap.String("path", r.URL.Path), zap.Error(err))
	}
	writeJSON(w, ae.Status, ae)
}

// classify maps err to a status and code.
func (s *Server) classify(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return errorf(http.StatusRequestEntityTooLarge, CodeTooLarge, "request body larger than "+itoa(mbe.Limit)+" bytes")
	case errors.Is(err, uploads.ErrTooLarge):
		return errorf(http.StatusRequestEntityTooLarge, CodeTooLarge, err.Error())
	case errors.Is(err, uploads.ErrBadName), errors.Is(err, uploads.ErrBadChecksum), errors.Is(err, uploads.ErrChecksum):
		return errorf(http.StatusBadRequest, CodeUploadInvalid, err.Error())
	case errors.Is(err, history.ErrNotFound):
		return errorf(http.StatusNotFound, chat.CodeNotFound, err.Error())
	case errors.Is(err, history.ErrAmbiguous):
		return errorf(http.StatusBadRequest, chat.CodeBadRequest, err.Error())
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		switch ce.Code {
		case chat.CodeNotFound:
			return errorf(http.StatusNotFound, ce.Code, ce.Error())
		case chat.CodeModel, chat.CodeBadRequest:
			return errorf(http.StatusBadRequest, ce.Code, ce.Error())
		}
	}
	return errorf(http.StatusInternalServerError, chat.CodeInternal, "internal error")
}

// decodeJSON reads a JSON body of at most MaxJSONBody bytes into v. An
// empty body is allowed when optional is set.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	sr := newStallReader(w, r.Body, s.cfg.StallTimeout)
	defer sr.done()
	dec := json.NewDecoder(http.MaxBytesReader(w, sr, s.cfg.MaxJSONBody))
	err := dec.Decode(v)
	var mbe *http.MaxBytesError
	switch {
	case err == nil && dec.More():
		err = errorf(http.StatusBadRequest, CodeBadJSON, "request body has data after the JSON value")
	case err == nil, errors.Is(err, io.EOF) && optional:
		return nil
	case errors.As(err, &mbe):
	default:
		err = errorf(http.StatusBadRequest, CodeBadJSON, "request body is not valid JSON: "+err.Error())
	}
	sr.abandon()
	return err
}

// codeForStatus names the code of a plain-text error written by net/http
// (the mux, http.ServeContent), which the guard turns into JSON.
func codeForStatus(status int) string {
	switch status {
	case http.StatusNotFound:
		return chat.CodeNotFound
	case http.StatusMethodNotAllowed:
		return CodeNotAllowed
	case http.StatusRequestedRangeNotSatisfiable:
		return CodeBadRange
	case http.StatusRequestEntityTooLarge:
		return CodeTooLarge
	case http.StatusUnauthorized:
		return CodeUnauthorized
	case http.StatusForbidden:
		return CodeForbidden
	}
	if status >= 500 {
		return chat.CodeInternal
	}
	return chat.CodeBadRequest
}

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

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
