package web

import (
	"io"
	"net/http"
	"time"
)

// stallWriter sets a fresh write deadline before each write, so a client
// that stops reading is dropped after stall while a slow but moving
// transfer may take as long as it needs — or, when end is set, until
// end at the latest.
type stallWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
	// end, if not zero, is when the whole response must have been
	// written (an export: chat.ExportSendTime).
	end  time.Time
	last time.Time
}

// extend pushes the deadline out, at most once a second, never past end.
func (s *stallWriter) extend() {
	now := time.Now()
	if now.Sub(s.last) < time.Second {
		return
	}
	s.last = now
	d := now.Add(s.stall)
	if !s.end.IsZero() && s.end.Before(d) {
		d = s.end
	}
	s.rc.SetWriteDeadline(d) // not supported by test recorders
}

func (s *stallWriter) Write(b []byte) (int, error) {
	s.extend()
	return s.ResponseWriter.Write(b)
}

// ReadFrom keeps the sendfile path: the deadline is extended per chunk
// of deadlineChunk bytes, each chunk a single io.LimitedReader over the
// file, the shape sendfile recognises.
func (s *stallWriter) ReadFrom(r io.Reader) (int64, error) {
	outer, limited := r.(*io.LimitedReader)
	inner := r
	remain := int64(-1)
	if limited {
		inner, remain = outer.R, outer.N
	}
	var total int64
	for remain != 0 {
		s.extend()
		step := int64(deadlineChunk)
		if remain >= 0 {
			step = min(step, remain)
		}
		n, err := io.Copy(s.ResponseWriter, &io.LimitedReader{R: inner, N: step})
		total += n
		if remain >= 0 {
			remain -= n
			outer.N = remain
		}
		if err != nil || n < step {
			return total, err
		}
	}
	return total, nil
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (s *stallWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// deadlineChunk is how much is sent between deadline checks.
const deadlineChunk = 4 << 20

// stallReader extends the connection's read deadline as a request body
// arrives, so a client that stops sending is dropped after stall while a
// slow upload may take as long as it needs.
//
// The handler must end it with done or abandon. done clears the
// deadline: one left behind would end the server's background read of
// the connection, and so the request's context, during a long response.
// abandon is for a body left unread after an error: the connection is
// closed after the reply, and net/http's attempt to drain the rest fails
// at once instead of waiting for a client that may never send it.
type stallReader struct {
	io.ReadCloser
	w     http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
	last  time.Time
	ended bool
}

func newStallReader(w http.ResponseWriter, body io.ReadCloser, stall time.Duration) *stallReader {
	return &stallReader{ReadCloser: body, w: w, rc: http.NewResponseController(w), stall: stall}
}

func (s *stallReader) Read(p []byte) (int, error) {
	if now := time.Now(); now.Sub(s.last) >= time.Second {
		s.last = now
		s.rc.SetReadDeadline(now.Add(s.stall)) // not supported by test recorders
	}
	return s.ReadCloser.Read(p)
}

// done clears the read deadline, unless abandon came first.
func (s *stallReader) done() {
	if !s.ended {
		s.ended = true
		s.rc.SetReadDeadline(time.Time{})
	}
}

// abandon gives up on the rest of the body. Call it before writing the
// error reply.
func (s *stallReader) abandon() {
	s.ended = true
	s.w.Header().Set("Connection", "close")
	s.rc.SetReadDeadline(time.Now())
}
