package client

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// TestDialHTTPServer points Dial at an HTTP server. The timeouts are an
// hour, so ErrHTTPServer can only come from the bytes of the 400 reply
// the probe after HELLO provokes, not from waiting.
func TestDialHTTPServer(t *testing.T) {
	var conns atomic.Int32
	s := httptest.NewUnstartedServer(http.NotFoundHandler())
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	ctx, cancel := testContext(t)
	defer cancel()
	opts := Options{HelloTimeout: time.Hour, HandshakeTimeout: time.Hour, Backoff: Backoff{Min: time.Millisecond, Max: time.Millisecond}}
	_, err := DialRetry(ctx, s.Listener.Addr().String(), opts, 5)
	if !errors.Is(err, ErrHTTPServer) || !errors.Is(err, ErrNotNPLT) {
		t.Fatalf("err = %v, want ErrHTTPServer", err)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("DialRetry connected %d times, want 1 (an HTTP server is no reason to retry)", n)
	}
}

// silentPeer accepts one connection, reads everything and writes what
// it is given, then nothing more.
func silentPeer(t *testing.T, say string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		if say != "" {
			if _, err := io.WriteString(nc, say); err != nil {
				t.Errorf("peer write: %v", err)
			}
		}
		_, _ = io.Copy(io.Discard, nc) // until the client closes
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return ln.Addr().String()
}

// TestDialSilentPeer: a peer that never answers HELLO is not an NPLT
// server once HelloTimeout (injected, tiny) has passed, well before the
// handshake's own timeout.
func TestDialSilentPeer(t *testing.T) {
	addr := silentPeer(t, "")
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, addr, Options{HelloTimeout: 10 * time.Millisecond, HandshakeTimeout: time.Hour})
	if !errors.Is(err, ErrNotNPLT) || errors.Is(err, ErrHTTPServer) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want ErrNotNPLT after the deadline", err)
	}
}

// TestDialOtherProtocol: a peer whose first bytes cannot start an NPLT
// frame (an SSH banner) is reported at once, with the bytes.
func TestDialOtherProtocol(t *testing.T) {
	addr := silentPeer(t, "SSH-2.0-OpenSSH_9.6\r\n")
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, addr, Options{HelloTimeout: time.Hour, HandshakeTimeout: time.Hour})
	if !errors.Is(err, ErrNotNPLT) || errors.Is(err, ErrHTTPServer) || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want ErrNotNPLT from the bytes", err)
	}
}

// TestDefaultHelloTimeout: the CLI pointed at the wrong port fails
// within 2 s by default.
func TestDefaultHelloTimeout(t *testing.T) {
	if d := (Options{}).populate().HelloTimeout; d <= 0 || d > 2*time.Second {
		t.Fatalf("default HelloTimeout = %v, want (0, 2s]", d)
	}
}

func TestFirstReplyError(t *testing.T) {
	timeout := os.ErrDeadlineExceeded
	for _, tc := range []struct {
		name     string
		b        string
		err      error
		want     error // nil: no error
		wantHTTP bool
	}{
		{name: "hello reply", b: "\x20\x00\x00\x00\x10"},
		{name: "greeting text", b: "\x01\x00\x00\x00\x05"},
		{name: "closed before anything", b: "", err: io.EOF},
		{name: "closed mid header", b: "\x20\x00", err: io.EOF},
		{name: "http", b: "HTTP/", want: ErrNotNPLT, wantHTTP: true},
		{name: "unknown type", b: "\xff\x00\x00\x00\x00", want: ErrNotNPLT},
		{name: "silence", b: "", err: timeout, want: ErrNotNPLT},
		{name: "a few bytes then silence", b: "\x20", err: timeout, want: ErrNotNPLT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := firstReplyError([]byte(tc.b), tc.err, time.Second)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || errors.Is(err, ErrHTTPServer) != tc.wantHTTP {
				t.Fatalf("err = %v, want %v (HTTP %v)", err, tc.want, tc.wantHTTP)
			}
		})
	}
}
