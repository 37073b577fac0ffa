package web

import (
	"io"
	"net/http"
	"time"
)

// stallWriter sets a fresh write deadline before each write, so a client
// that stops reading is dropped after stall while a slow but moving
// transfer may take as long as it needs.
type stallWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
	last  time.Time
}

// extend pushes the deadline out, at most once a second.
func (s *stallWriter) extend() {
	now := time.Now()
	if now.Sub(s.last) < time.Second {
		return
	}
	s.last = now
	s.rc.SetWriteDeadline(now.Add(s.stall)) // not supported by test recorders
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
