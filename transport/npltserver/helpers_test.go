package npltserver

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// testServer is a server on 127.0.0.1:0 with its own data directory.
type testServer struct {
	*Server
	addr    string
	dataDir string
	svc     *chat.Service
	hist    *history.Store
}

type serverOpt func(*Config, *chat.Config)

func startServer(t testing.TB, dataDir string, opts ...serverOpt) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startServerOn(t, dataDir, ln, opts...)
}

// startServerOn is startServer serving ln (an in-memory listener inside
// a synctest bubble, say).
func startServerOn(t testing.TB, dataDir string, ln net.Listener, opts ...serverOpt) *testServer {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	log := zaptest.NewLogger(t)
	hist, err := history.Open(filepath.Join(dataDir, "history"), log)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dataDir, "uploads"), 100<<20)
	if err != nil {
		t.Fatal(err)
	}
	cc := chat.Config{History: hist, Uploads: ups, Agent: agent.Placeholder{}, Models: []string{"builtin", "deepseek"}, Logger: log}
	sc := Config{Version: "test", Logger: log}
	for _, o := range opts {
		o(&sc, &cc)
	}
	svc, err := chat.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	sc.Chat = svc
	srv, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	ts := &testServer{Server: srv, addr: addr, dataDir: dataDir, svc: svc, hist: hist}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
		svc.Close(ctx)
	})
	return ts
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// client is a raw NPLT test client.
type client struct {
	t  testing.TB
	nc net.Conn
	r  *nplt.Reader
	w  *nplt.Writer
}

// dial connects; with hello it sends HELLO and reads the HELLO reply. It
// returns after reading the greeting reply.
func dial(t testing.TB, addr string, hello bool) *client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return greeted(t, nc, hello)
}

// greeted is dial over an open connection nc (net.Pipe, say).
func greeted(t testing.TB, nc net.Conn, hello bool) *client {
	t.Helper()
	t.Cleanup(func() { nc.Close() })
	c := &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
	greeting := c.reply()
	if len(greeting) != 2 || greeting[0].Type != nplt.ChatText || !strings.Contains(string(greeting[0].Payload), "opsassist") {
		t.Fatalf("greeting = %v", greeting)
	}
	if hello {
		c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "test", Version: "1", ClientType: "cli"})
		f := c.read()
		if f.Type != nplt.Hello {
			t.Fatalf("want HELLO reply, got %v %q", f.Type, f.Payload)
		}
	}
	return c
}

func (c *client) send(t nplt.Type, p []byte) {
	c.t.Helper()
	if err := c.w.WriteFrame(t, p); err != nil {
		c.t.Fatal(err)
	}
	if err := c.w.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) sendJSON(t nplt.Type, v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(t, b)
}

// read returns the next frame, copying its payload.
func (c *client) read() nplt.Frame {
	c.t.Helper()
	f, err := c.tryRead()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

// tryRead returns the next frame. Its deadline only keeps a hung test
// from waiting forever: generous, so a slow, loaded machine (-race, fuzz
// seeds of 64 KiB messages) never fails a test by it.
func (c *client) tryRead() (nplt.Frame, error) {
	c.nc.SetReadDeadline(time.Now().Add(2 * time.Minute))
	f, err := c.r.ReadFrame()
	f.Payload = append([]byte(nil), f.Payload...)
	return f, err
}

// reply reads frames through the empty CHAT_TEXT that ends a reply,
// skipping heartbeats and upload progress.
func (c *client) reply() []nplt.Frame {
	c.t.Helper()
	var out []nplt.Frame
	for {
		f := c.read()
		if f.Type == nplt.UploadProgress || f.Type == nplt.Ping {
			continue
		}
		out = append(out, f)
		if f.Type == nplt.ChatText && len(f.Payload) == 0 {
			return out
		}
	}
}

// replyText concatenates the CHAT_TEXT chunks of a reply.
func replyText(fs []nplt.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		if f.Type == nplt.ChatText {
			b.Write(f.Payload)
		}
	}
	return b.String()
}

// errorCode returns the code of the reply's ERROR frame, or "".
// internalPrefix finds a package prefix ("history: ") no ERROR message
// may carry.
var internalPrefix = regexp.MustCompile(`(^|[\s(:])(history|chat|uploads|client|pathguard|nplt|rdt|web|npltserver|tokens|toolcall|policy|tools|agent|llm|index|indexer|ingest): `)

func errorCode(t testing.TB, fs []nplt.Frame) string {
	for _, f := range fs {
		if f.Type == nplt.Error {
			var e nplt.ErrorPayload
			if err := json.Unmarshal(f.Payload, &e); err != nil {
				t.Fatalf("bad ERROR payload %q", f.Payload)
			}
			if internalPrefix.MatchString(e.Message) {
				t.Errorf("ERROR message %q carries a package prefix", e.Message)
			}
			return e.Code
		}
	}
	return ""
}

// result decodes the RESULT frame of a reply into v and returns its kind.
func result(t testing.TB, fs []nplt.Frame, v any) string {
	t.Helper()
	for _, f := range fs {
		if f.Type == nplt.Result {
			var r struct {
				Kind string          `json:"kind"`
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(f.Payload, &r); err != nil {
				t.Fatal(err)
			}
			if v != nil {
				if err := json.Unmarshal(r.Data, v); err != nil {
					t.Fatal(err)
				}
			}
			return r.Kind
		}
	}
	t.Fatalf("no RESULT in reply %v", fs)
	return ""
}

// chat sends a message and returns the reply frames.
func (c *client) chat(text string) []nplt.Frame {
	c.t.Helper()
	c.send(nplt.ChatText, []byte(text))
	return c.reply()
}

// expectClosed reads until the server closes the connection, returning the
// frames seen.
func (c *client) expectClosed() []nplt.Frame {
	c.t.Helper()
	var out []nplt.Frame
	for {
		f, err := c.tryRead()
		if err != nil {
			if errors.Is(err, nplt.ErrShortHeader) || strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "reset") {
				return out
			}
			c.t.Fatalf("want close, got %v", err)
		}
		out = append(out, f)
	}
}

func netDial(addr string) (net.Conn, error) { return net.DialTimeout("tcp", addr, 5*time.Second) }
