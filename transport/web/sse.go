package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// sseWriter writes server-sent events, one flush per event. Each write
// has its own deadline, so a client that stops reading is dropped
// without limiting how long the stream may last.
type sseWriter struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration

	mu  sync.Mutex
	err error // first write error; later writes fail with it
}

func newSSEWriter(w http.ResponseWriter, stall time.Duration) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	return &sseWriter{w: w, rc: http.NewResponseController(w), stall: stall}
}

// event writes "event: typ" and "data: <json of v>" and flushes.
func (s *sseWriter) event(typ string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("web: encoding %s event: %w", typ, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.rc.SetWriteDeadline(time.Now().Add(s.stall)) // unsupported only by test recorders
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", typ, data); err != nil {
		s.err = fmt.Errorf("web: writing event: %w", err)
		return s.err
	}
	if err := s.rc.Flush(); err != nil {
		s.err = fmt.Errorf("web: flushing event: %w", err)
		return s.err
	}
	return nil
}

// errDetached fails the writes to a stream whose turn was detached from
// its handler (the client left).
var errDetached = errors.New("web: the chat stream's client left")

// close makes every later write fail with errDetached, so nothing writes
// to the ResponseWriter after its handler returned.
func (s *sseWriter) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = errDetached
	}
}

// comment writes an SSE comment line, which clients ignore, to keep the
// stream alive through proxies while a tool runs.
func (s *sseWriter) comment(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.rc.SetWriteDeadline(time.Now().Add(s.stall))
	if _, err := fmt.Fprintf(s.w, ": %s\n\n", text); err != nil {
		s.err = err
		return err
	}
	if err := s.rc.Flush(); err != nil {
		s.err = err
		return err
	}
	return nil
}
