package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"opsassist/nplt"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// testTimeout bounds every wait in the tests; nothing waits for it to pass.
const testTimeout = 5 * time.Second

// Values the fake server uses.
const (
	fakeSession  = "sess-0001-aaaa"
	fakeModel    = "fake-model"
	fakeGreeting = "欢迎使用 opsassist！"
)

// fakeServer is a scripted NPLT server on 127.0.0.1:0. The i-th accepted
// connection runs the i-th script; further connections are not accepted.
type fakeServer struct {
	addr string
}

func newFakeServer(t *testing.T, scripts ...func(*fakeConn)) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, script := range scripts {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer nc.Close()
				script(&fakeConn{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)})
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return &fakeServer{addr: ln.Addr().String()}
}

// fakeConn is one server-side connection. Its helpers report failures
// with t.Errorf and end the script goroutine.
type fakeConn struct {
	t  *testing.T
	nc net.Conn
	r  *nplt.Reader
	w  *nplt.Writer
}

func (fc *fakeConn) fail(format string, args ...any) {
	fc.t.Helper()
	fc.t.Errorf("fake server: "+format, args...)
	runtime.Goexit()
}

// read returns the next frame, failing after testTimeout.
func (fc *fakeConn) read() nplt.Frame {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(testTimeout)); err != nil {
		fc.fail("deadline: %v", err)
	}
	f, err := fc.r.ReadFrame()
	if err != nil {
		fc.fail("read: %v", err)
	}
	f.Payload = bytes.Clone(f.Payload)
	return f
}

// readUntilEOF waits for the client to close the connection.
func (fc *fakeConn) readUntilEOF() {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(testTimeout)); err != nil {
		fc.fail("deadline: %v", err)
	}
	for {
		if _, err := fc.r.ReadFrame(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				fc.fail("client did not close: %v", err)
			}
			return
		}
	}
}

// expectClose checks that the client closes the connection without
// sending anything more.
func (fc *fakeConn) expectClose() {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(testTimeout)); err != nil {
		fc.fail("deadline: %v", err)
	}
	f, err := fc.r.ReadFrame()
	switch {
	case err == nil:
		fc.fail("got %v %q, want the connection closed", f.Type, f.Payload)
	case errors.Is(err, os.ErrDeadlineExceeded):
		fc.fail("client did not close: %v", err)
	}
}

// resumeRefused answers a HELLO that asks for an unknown session the way
// the server does without a token: greeting, then an error reply
// (ERROR not_found, end), then the HELLO reply naming the new
// conversation. It returns the client's HELLO.
func (fc *fakeConn) resumeRefused(newSession string) nplt.HelloPayload {
	fc.t.Helper()
	fc.greet()
	var h nplt.HelloPayload
	fc.expectJSON(nplt.Hello, &h)
	fc.error(nplt.CodeNotFound, "conversation not found: "+h.SessionID)
	fc.end()
	fc.helloReply(newSession)
	return h
}

// expect reads a frame and checks its type.
func (fc *fakeConn) expect(t nplt.Type) nplt.Frame {
	fc.t.Helper()
	f := fc.read()
	if f.Type != t {
		fc.fail("got %v %q, want %v", f.Type, f.Payload, t)
	}
	return f
}

// expectJSON reads a frame of type t and decodes its payload into v.
func (fc *fakeConn) expectJSON(t nplt.Type, v any) {
	fc.t.Helper()
	f := fc.expect(t)
	if err := json.Unmarshal(f.Payload, v); err != nil {
		fc.fail("%v payload %q: %v", t, f.Payload, err)
	}
}

func (fc *fakeConn) send(t nplt.Type, payload []byte) {
	fc.t.Helper()
	if err := fc.w.WriteFrame(t, payload); err != nil {
		fc.fail("write: %v", err)
	}
	if err := fc.w.Flush(); err != nil {
		fc.fail("flush: %v", err)
	}
}

func (fc *fakeConn) sendJSON(t nplt.Type, v any) {
	fc.t.Helper()
	p, err := json.Marshal(v)
	if err != nil {
		fc.fail("marshal: %v", err)
	}
	fc.send(t, p)
}

func (fc *fakeConn) text(s string) { fc.send(nplt.ChatText, []byte(s)) }
func (fc *fakeConn) end()          { fc.send(nplt.ChatText, nil) }
func (fc *fakeConn) status(typ, content, session string) {
	fc.sendJSON(nplt.AgentThought, nplt.Status{Type: typ, Content: content, SessionID: session})
}
func (fc *fakeConn) error(code, msg string) {
	fc.sendJSON(nplt.Error, nplt.ErrorPayload{Code: code, Message: msg})
}
func (fc *fakeConn) result(kind string, data any) {
	fc.sendJSON(nplt.Result, nplt.ResultPayload{Kind: kind, Data: data})
}

// greet sends the greeting reply.
func (fc *fakeConn) greet() {
	fc.text(fakeGreeting)
	fc.end()
}

// helloReply sends the HELLO reply for session.
func (fc *fakeConn) helloReply(session string) {
	fc.sendJSON(nplt.Hello, nplt.HelloReply{Server: "fake", Version: "test", SessionID: session, Model: fakeModel, MaxUpload: 100 << 20})
}

// handshake does the common handshake: greeting, then HELLO and its
// reply. It returns the client's HELLO.
func (fc *fakeConn) handshake() nplt.HelloPayload {
	fc.t.Helper()
	fc.greet()
	var h nplt.HelloPayload
	fc.expectJSON(nplt.Hello, &h)
	session := h.SessionID
	if session == "" {
		session = fakeSession
	}
	fc.helloReply(session)
	return h
}

// dial connects a client to s and closes it when the test ends.
func dial(t *testing.T, s *fakeServer, opts Options) *Conn {
	t.Helper()
	ctx, cancel := testContext(t)
	defer cancel()
	c, err := Dial(ctx, s.addr, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// testContext returns a context that ends after testTimeout.
func testContext(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), testTimeout)
}

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
