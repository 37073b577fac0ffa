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
// idle REPL when it happens, not at the next command, as one info line
// (no error: a shutdown is not the user's); the next command then
// reconnects quietly to the server that came back.
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
	out.waitFor(t, "is shutting down; your next command reconnects")
	if _, err := io.WriteString(typed, "second\n"); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "answer two\n")
	typed.Close()
	if code := <-codes; code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	got := out.String()
	notice := strings.Index(got, "the server at "+s.Addr+" is shutting down; your next command reconnects\n")
	if notice < 0 || strings.Count(got, "shutting down") != 1 || strings.Contains(got, "error") || strings.Contains(got, "closed the connection") ||
		notice > strings.Index(got, "answer two") {
		t.Errorf("want the goodbye once, before the next answer:\n%s", got)
	}
	if strings.Contains(got, "reconnecting to") || strings.Contains(got, "lost the connection") {
		t.Errorf("reconnection not quiet:\n%s", got)
	}
}

// fakeRedrawer is a line reader that records redraw calls.
type fakeRedrawer struct {
	streamReader
	redrawn int
}

func (f *fakeRedrawer) redraw()       { f.redrawn++ }
func (f *fakeRedrawer) redraws() bool { return true }

// TestIdlePrintRedraws: output while the prompt is shown is printed on
// the prompt's cleared row, above it, and the line editor draws the
// prompt and the typed text again (the REPL does not print a bare
// prompt over them); without such an editor the REPL prints the prompt.
func TestIdlePrintRedraws(t *testing.T) {
	var out bytes.Buffer
	c := &CLI{Stdout: &out, Getenv: func(string) string { return "" }}
	r := c.newREPL(cliConfig{server: "127.0.0.1:9999"}, nil)
	r.outTTY = true
	r.termWidth = func() int { return 80 }
	fr := &fakeRedrawer{}
	r.lines = fr
	r.idlePrint(func() { r.printf("🔎 indexed for search: a.yaml\n") })
	if got := out.String(); got != "\r\x1b[2K🔎 indexed for search: a.yaml\n" || fr.redrawn != 1 {
		t.Errorf("output %q, %d redraws", got, fr.redrawn)
	}
	// A terminal that reports no size: liner would not redraw.
	out.Reset()
	r.termWidth = func() int { return 0 }
	r.idlePrint(func() { r.printf("🔎 indexed for search: a.yaml\n") })
	if got := out.String(); got != "\r\x1b[2K🔎 indexed for search: a.yaml\n"+replPrompt || fr.redrawn != 1 {
		t.Errorf("no size: output %q, %d redraws", got, fr.redrawn)
	}
	out.Reset()
	r.lines = nil
	r.idlePrint(func() { r.printf("x\n") })
	if got := out.String(); got != "\r\x1b[2Kx\n"+replPrompt {
		t.Errorf("without a redrawer: %q", got)
	}
}
