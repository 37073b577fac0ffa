package cli

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// watchedBuffer is a goroutine-safe buffer whose waitFor returns once it
// contains a string.
type watchedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed and replaced on every write
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{})} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	close(w.changed)
	w.changed = make(chan struct{})
	return w.b.Write(p)
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor waits until the buffer contains s, failing after
// npltfake.Timeout.
func (w *watchedBuffer) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(npltfake.Timeout)
	for {
		w.mu.Lock()
		ok, ch := strings.Contains(w.b.String(), s), w.changed
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("output never contained %q:\n%s", s, w.String())
		}
	}
}

// TestREPLIdleShutdownReportedAtOnce: the server's goodbye reaches an
// idle REPL when it happens, not at the next command; the next command
// then reconnects quietly to the server that came back.
func TestREPLIdleShutdownReportedAtOnce(t *testing.T) {
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Error(api.CodeShuttingDown, "server is shutting down")
			// returning closes the connection
		},
		func(fc *npltfake.Conn) {
			fc.Handshake()
			if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
				fc.Fail("chat %q", f.Payload)
			}
			fc.Text("answer two")
			fc.End()
			fc.ReadUntilEOF()
		})
	in, typed := io.Pipe()
	out := newWatchedBuffer()
	c := &CLI{
		Stdin: in, Stdout: out, Stderr: out,
		Getenv:  func(k string) string { return map[string]string{EnvServer: s.Addr}[k] },
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond},
	}
	codes := make(chan int, 1)
	ctx, cancel := testContext(t)
	defer cancel()
	go func() { codes <- c.Run(ctx, nil) }()

	// Nothing typed yet: the REPL is idle at its prompt.
	out.waitFor(t, "closed the connection; your next command reconnects")
	if _, err := io.WriteString(typed, "second\n"); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "answer two\n")
	typed.Close()
	if code := <-codes; code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	got := out.String()
	notice := strings.Index(got, "error: server is shutting down")
	if notice < 0 || strings.Count(got, "shutting down") != 1 || notice > strings.Index(got, "answer two") {
		t.Errorf("want the goodbye once, before the next answer:\n%s", got)
	}
	if strings.Contains(got, "reconnecting to") || strings.Contains(got, "lost the connection") {
		t.Errorf("reconnection not quiet:\n%s", got)
	}
}
