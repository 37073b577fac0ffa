// Package npltfake is a scripted NPLT server for the client's and the
// command line's tests: each accepted connection runs one script that
// reads the client's frames and writes the server's, failing the test on
// anything unexpected. It is test support only; nothing outside tests
// imports it.
package npltfake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/nplt"
)

// Timeout bounds every wait in the tests; nothing waits for it to pass.
const Timeout = 5 * time.Second

// Values the fake server uses.
const (
	Session  = "sess-0001-aaaa"
	Model    = "fake-model"
	Greeting = "欢迎使用 opsassist！"
)

// Offer is the DOWNLOAD_OFFER that ChatReply sends.
var Offer = api.Offer{Filename: "cpu.csv", FileSize: 2048, SHA256: "ab12", DownloadToken: "tok-1", TransportMode: "rdt", RDTAddr: "127.0.0.1:9998"}

// Server is a scripted NPLT server on 127.0.0.1:0. The i-th accepted
// connection runs the i-th script; further connections are not accepted.
type Server struct {
	// Addr is the address the server listens on.
	Addr string
}

// New starts a Server running scripts, one per connection in order. It
// stops listening and waits for the scripts when the test ends.
func New(t *testing.T, scripts ...func(*Conn)) *Server {
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
				script(&Conn{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)})
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return &Server{Addr: ln.Addr().String()}
}

// Conn is one server-side connection. Its helpers report failures
// with t.Errorf and end the script goroutine.
type Conn struct {
	t  *testing.T
	nc net.Conn
	r  *nplt.Reader
	w  *nplt.Writer
}

// Fail reports a failure of the script and ends its goroutine.
func (fc *Conn) Fail(format string, args ...any) {
	fc.t.Helper()
	fc.t.Errorf("fake server: "+format, args...)
	runtime.Goexit()
}

// Read returns the next frame, failing after Timeout.
func (fc *Conn) Read() nplt.Frame {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		fc.Fail("deadline: %v", err)
	}
	f, err := fc.readFrame()
	if err != nil {
		fc.Fail("read: %v", err)
	}
	f.Payload = bytes.Clone(f.Payload)
	return f
}

// readFrame reads the next frame other than a PING: the client sends
// PING only as the probe after HELLO, which scripts do not expect.
func (fc *Conn) readFrame() (nplt.Frame, error) {
	for {
		f, err := fc.r.ReadFrame()
		if err != nil || f.Type != nplt.Ping {
			return f, err
		}
	}
}

// Next returns the next frame, or false once the client closed the
// connection; it fails after Timeout.
func (fc *Conn) Next() (nplt.Frame, bool) {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		fc.Fail("deadline: %v", err)
	}
	f, err := fc.readFrame()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		fc.Fail("client neither sent nor closed: %v", err)
	}
	if err != nil {
		return nplt.Frame{}, false
	}
	f.Payload = bytes.Clone(f.Payload)
	return f, true
}

// ReadUntilEOF waits for the client to close the connection.
func (fc *Conn) ReadUntilEOF() {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		fc.Fail("deadline: %v", err)
	}
	for {
		if _, err := fc.r.ReadFrame(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				fc.Fail("client did not close: %v", err)
			}
			return
		}
	}
}

// ExpectClose checks that the client closes the connection without
// sending anything more.
func (fc *Conn) ExpectClose() {
	fc.t.Helper()
	if err := fc.nc.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		fc.Fail("deadline: %v", err)
	}
	f, err := fc.readFrame()
	switch {
	case err == nil:
		fc.Fail("got %v %q, want the connection closed", f.Type, f.Payload)
	case errors.Is(err, os.ErrDeadlineExceeded):
		fc.Fail("client did not close: %v", err)
	}
}

// ResumeRefused answers a HELLO that asks for an unknown session the way
// the server does without a token: greeting, then an error reply
// (ERROR not_found, end), then the HELLO reply naming the new
// conversation. It returns the client's HELLO.
func (fc *Conn) ResumeRefused(newSession string) nplt.HelloPayload {
	fc.t.Helper()
	fc.Greet()
	var h nplt.HelloPayload
	fc.ExpectJSON(nplt.Hello, &h)
	fc.Error(api.CodeNotFound, "conversation not found: "+h.SessionID)
	fc.End()
	fc.HelloReply(newSession)
	return h
}

// Expect reads a frame and checks its type.
func (fc *Conn) Expect(t nplt.Type) nplt.Frame {
	fc.t.Helper()
	f := fc.Read()
	if f.Type != t {
		fc.Fail("got %v %q, want %v", f.Type, f.Payload, t)
	}
	return f
}

// ExpectJSON reads a frame of type t and decodes its payload into v.
func (fc *Conn) ExpectJSON(t nplt.Type, v any) {
	fc.t.Helper()
	f := fc.Expect(t)
	if err := json.Unmarshal(f.Payload, v); err != nil {
		fc.Fail("%v payload %q: %v", t, f.Payload, err)
	}
}

// Send writes one frame and flushes it.
func (fc *Conn) Send(t nplt.Type, payload []byte) {
	fc.t.Helper()
	if err := fc.w.WriteFrame(t, payload); err != nil {
		fc.Fail("write: %v", err)
	}
	if err := fc.w.Flush(); err != nil {
		fc.Fail("flush: %v", err)
	}
}

// SendJSON writes a frame of type t with v as its JSON payload.
func (fc *Conn) SendJSON(t nplt.Type, v any) {
	fc.t.Helper()
	p, err := json.Marshal(v)
	if err != nil {
		fc.Fail("marshal: %v", err)
	}
	fc.Send(t, p)
}

// Text sends a CHAT_TEXT frame.
func (fc *Conn) Text(s string) { fc.Send(nplt.ChatText, []byte(s)) }

// End sends the empty CHAT_TEXT frame that ends a reply.
func (fc *Conn) End() { fc.Send(nplt.ChatText, nil) }

// Status sends an AGENT_THOUGHT status.
func (fc *Conn) Status(typ, content, session string) {
	fc.SendJSON(nplt.AgentThought, nplt.Status{Type: typ, Content: content, SessionID: session})
}

// Error sends an ERROR frame.
func (fc *Conn) Error(code, msg string) {
	fc.SendJSON(nplt.Error, nplt.ErrorPayload{Code: code, Message: msg})
}

// Result sends a RESULT frame.
func (fc *Conn) Result(kind string, data any) {
	fc.SendJSON(nplt.Result, nplt.ResultPayload{Kind: kind, Data: data})
}

// Greet sends the greeting reply.
func (fc *Conn) Greet() {
	fc.Text(Greeting)
	fc.End()
}

// HelloReply sends the HELLO reply for session, announcing the cancel
// feature.
func (fc *Conn) HelloReply(session string) {
	fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "fake", Version: "test", SessionID: session, Model: Model, MaxUpload: 100 << 20, Features: []string{nplt.FeatureCancel, nplt.FeatureTools, nplt.FeatureRename, nplt.FeatureSessionSearch, nplt.FeatureExport, nplt.FeatureSessionPaging}})
}

// Handshake does the common handshake: greeting, then HELLO and its
// reply. It returns the client's HELLO.
func (fc *Conn) Handshake() nplt.HelloPayload {
	fc.t.Helper()
	fc.Greet()
	var h nplt.HelloPayload
	fc.ExpectJSON(nplt.Hello, &h)
	session := h.SessionID
	if session == "" {
		session = Session
	}
	fc.HelloReply(session)
	return h
}

// ChatReply sends a full chat reply with every kind of event: stream
// start, two statuses, two deltas, Offer and the end.
func (fc *Conn) ChatReply() {
	fc.Status(api.StatusStreamStart, "", "sess-0002-bbbb")
	fc.Status(api.StatusThinking, "checking load", "")
	fc.Status(api.StatusToolCall, "cpu_usage()", "")
	fc.Text("当前 CPU")
	fc.Text("使用率 3.1%")
	fc.SendJSON(nplt.DownloadOffer, Offer)
	fc.End()
}

// WriteFile writes n pseudo-random bytes to a file name in a temporary
// directory and returns its path and contents.
func WriteFile(t *testing.T, name string, n int) (string, []byte) {
	t.Helper()
	data := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// Upload receives one upload of the file name, checks it against want
// and confirms it the way the server does.
func (fc *Conn) Upload(want []byte, name string) {
	var meta nplt.FileMeta
	fc.ExpectJSON(nplt.FileMetadata, &meta)
	sum := sha256.Sum256(want)
	if meta.Filename != name || meta.Size != int64(len(want)) || meta.SHA256 != hex.EncodeToString(sum[:]) {
		fc.Fail("metadata = %+v", meta)
	}
	var got []byte
	frames := 0
	for int64(len(got)) < meta.Size {
		f := fc.Expect(nplt.FileData)
		if len(f.Payload) == 0 || len(f.Payload) > nplt.MaxPayload {
			fc.Fail("chunk of %d bytes", len(f.Payload))
		}
		got = append(got, f.Payload...)
		frames++
		if frames == 8 {
			fc.SendJSON(nplt.UploadProgress, nplt.UploadProgressPayload{Filename: name, Received: int64(len(got)), Size: meta.Size})
		}
	}
	if !bytes.Equal(got, want) {
		fc.Fail("uploaded bytes differ (%d bytes, want %d)", len(got), len(want))
	}
	if wantFrames := (len(want) + nplt.MaxPayload - 1) / nplt.MaxPayload; frames != wantFrames {
		fc.Fail("%d FILE_DATA frames, want %d", frames, wantFrames)
	}
	fc.SendJSON(nplt.UploadProgress, nplt.UploadProgressPayload{Filename: name, Received: meta.Size, Size: meta.Size})
	fc.SendJSON(nplt.UploadDone, nplt.UploadDonePayload{FileID: "file-1", Filename: name, Size: meta.Size, SHA256: meta.SHA256, SessionID: Session})
	fc.Text("文件上传成功: " + name + " (file_id file-1)")
	fc.End()
}
