package command

import (
	"fmt"
	"unicode/utf8"
)

// capWriter keeps the first max bytes written to it and counts the rest.
// It never fails, so the copy from the child's pipe keeps draining and the
// child never blocks on a full pipe. It is not safe for concurrent use;
// os/exec gives each stream its own copying goroutine.
type capWriter struct {
	max     int
	buf     []byte
	dropped int64
}

// Write keeps what fits and discards the rest.
func (w *capWriter) Write(p []byte) (int, error) {
	n := len(p)
	if room := w.max - len(w.buf); room > 0 {
		k := min(room, len(p))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
	}
	w.dropped += int64(len(p))
	return n, nil
}

// String returns the kept bytes. If anything was dropped, a rune cut in
// half at the cap is dropped too and a "…[truncated N bytes]" marker
// follows on its own line.
func (w *capWriter) String() string {
	if w.dropped == 0 {
		return string(w.buf)
	}
	b := w.buf
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	dropped := w.dropped + int64(len(w.buf)-len(b))
	sep := ""
	if len(b) > 0 && b[len(b)-1] != '\n' {
		sep = "\n"
	}
	return fmt.Sprintf("%s%s…[truncated %d bytes]", b, sep, dropped)
}
