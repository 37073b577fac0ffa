package mcp

import (
	"bytes"
	"sync"

	"opsassist/tools"
)

// stderrKeep is how much of a stdio child's stderr is kept.
const stderrKeep = 4096

// stderrLineMax caps the stderr line put in a reason.
const stderrLineMax = 300

// tail keeps the end of a stdio child's stderr, to say why it failed.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrKeep; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written, secrets redacted
// (tools.RedactString), cut to stderrLineMax bytes; "" when none.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimRight(t.buf, "\r\n\t ")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	s := tools.RedactString(string(bytes.TrimSpace(b)))
	if len(s) > stderrLineMax {
		s = s[:stderrLineMax] + "…"
	}
	return s
}

// reset forgets what was written.
func (t *tail) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = t.buf[:0]
}
