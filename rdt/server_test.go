package rdt

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"opsassist/storage/tokens"
)

// TestTokenErrors checks that unknown, expired and wrong-file tokens get
// an ERROR packet with the matching reason, and no file is written.
func TestTokenErrors(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	path, tok, _ := e.file("a", 1000, 1)
	_, other, _ := e.file("b", 1000, 2)
	expired, err := e.tokens.Issue(tokens.Token{Path: path, Filename: "a", Size: tok.Size, SHA256: tok.SHA256}, time.Now().Add(-tokens.DefaultTTL-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	changed, _ := e.tokens.Issue(tokens.Token{Path: path, Filename: "a", Size: tok.Size + 1, SHA256: tok.SHA256}, time.Now())
	cases := []struct {
		name string
		cfg  ClientConfig
		want error
		code ErrorCode
	}{
		{"unknown", ClientConfig{Token: "0123456789abcdef"}, ErrUnknownToken, CodeUnknownToken},
		{"expired", ClientConfig{Token: expired.ID}, ErrExpiredToken, CodeExpiredToken},
		{"reused for another file", ClientConfig{Token: tok.ID, SHA256: other.SHA256}, ErrWrongFile, CodeWrongFile},
		{"file changed", ClientConfig{Token: changed.ID}, ErrWrongFile, CodeWrongFile},
	}
	for _, c := range cases {
		c.cfg.Addr = e.addr
		c.cfg.Path = filepath.Join(t.TempDir(), "out")
		_, err := Download(testCtx(t, 10*time.Second), c.cfg)
		var re *RemoteError
		if !errors.Is(err, c.want) || !errors.As(err, &re) || re.Code != c.code || re.Reason == "" {
			t.Errorf("%s: got %v", c.name, err)
		}
		if _, err := os.Stat(c.cfg.Path); err == nil {
			t.Errorf("%s: file written", c.name)
		}
	}
	if st := e.srv.Stats(); st.Refused != int64(len(cases)) || st.Transfers != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestNoAmplification checks that a REQUEST without a valid cookie is
// answered by at most as many bytes as it had, and a bare or forged one
// starts nothing.
func TestNoAmplification(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	_, tok, _ := e.file("a", 100000, 1)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	srv, _ := net.ResolveUDPAddr("udp", e.addr)
	send := func(p Packet) int {
		b, err := p.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pc.WriteTo(b, srv); err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	read := func() []byte {
		pc.SetReadDeadline(time.Now().Add(5 * time.Second))
		b := make([]byte, 2048)
		n, _, err := pc.ReadFrom(b)
		if err != nil {
			t.Fatal(err)
		}
		return b[:n]
	}
	n := send(Packet{Type: TypeRequest, ConnID: 9, Token: tok.ID})
	b := read()
	if len(b) > n {
		t.Fatalf("answered %d bytes to %d", len(b), n)
	}
	retry, err := Parse(b)
	if err != nil || retry.Type != TypeRetry {
		t.Fatalf("%v %v", retry.Type, err)
	}
	// A forged cookie gets another RETRY, not data.
	forged := append([]byte(nil), retry.Cookie...)
	forged[len(forged)-1] ^= 1
	send(Packet{Type: TypeRequest, ConnID: 9, Token: tok.ID, Cookie: forged})
	if p, err := Parse(read()); err != nil || p.Type != TypeRetry {
		t.Fatalf("forged cookie: %v %v", p.Type, err)
	}
	// A cookie for another connection id is not valid either.
	send(Packet{Type: TypeRequest, ConnID: 10, Token: tok.ID, Cookie: retry.Cookie})
	if p, err := Parse(read()); err != nil || p.Type != TypeRetry {
		t.Fatalf("cookie of another connection: %v %v", p.Type, err)
	}
	// Packets other than REQUEST for unknown connections get nothing.
	send(Packet{Type: TypeAck, ConnID: 11, MaxOffset: 1 << 30})
	// The echoed cookie starts the transfer.
	send(Packet{Type: TypeRequest, ConnID: 9, Token: tok.ID, Cookie: retry.Cookie})
	if p, err := Parse(read()); err != nil || p.Type != TypeData || p.ConnID != 9 {
		t.Fatalf("after the cookie: %v %v", p.Type, err)
	}
	if st := e.srv.Stats(); st.Retries != 3 || st.Dropped != 1 || st.Transfers != 1 || st.Malformed != 0 {
		t.Fatalf("stats %+v", st)
	}
	pc.WriteTo([]byte("garbage"), srv)
	send(Packet{Type: TypeError, ConnID: 9, Code: CodeCancelled})
	if st := e.waitTransfer(); st.Err == nil {
		t.Fatal("cancelled transfer reported success")
	}
	// A late or replayed REQUEST for the finished connection starts
	// nothing and gets no answer.
	before := e.srv.Stats()
	send(Packet{Type: TypeRequest, ConnID: 9, Token: tok.ID, Cookie: retry.Cookie})
	send(Packet{Type: TypeRequest, ConnID: 9, Token: tok.ID})
	// A fresh connection's request is the marker: once it is answered,
	// the two before were handled.
	send(Packet{Type: TypeRequest, ConnID: 12, Token: tok.ID})
	for {
		p, err := Parse(read())
		if err != nil {
			t.Fatal(err)
		}
		if p.ConnID == 12 {
			break
		}
		if p.ConnID == 9 && p.Type != TypeData {
			t.Fatalf("finished connection answered %v", p.Type)
		}
	}
	if st := e.srv.Stats(); st.Transfers != before.Transfers || st.Dropped < before.Dropped+2 {
		t.Fatalf("stats %+v after %+v", st, before)
	}
}

// TestResumeAfterKill kills a client half-way (no record saved at the
// kill, as with SIGKILL) and runs it again: the file completes, and the
// bytes fetched twice stay within one window plus one packet.
func TestResumeAfterKill(t *testing.T) {
	e := newEnv(t, ServerConfig{RateLimit: 16 << 20})
	const size = 6 << 20
	_, tok, data := e.file("big", size, 3)
	out := filepath.Join(t.TempDir(), "out")
	const window = 256
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, err := Download(ctx, ClientConfig{Addr: e.addr, Token: tok.ID, Path: out, Window: window, crash: true,
		Progress: func(p Progress) {
			if p.Received >= size/2 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	if _, err := os.Stat(out + PartSuffix + RecordSuffix); err != nil {
		t.Fatalf("no record after the first run: %v", err)
	}
	second := e.download(testCtx(t, 30*time.Second), ClientConfig{Token: tok.ID, Path: out, Window: window}, data)
	if second.Resumed == 0 {
		t.Fatal("nothing resumed")
	}
	again := first.BytesReceived + second.BytesReceived - size
	limit := int64(window*DefaultPayload + DefaultPayload)
	t.Logf("first run %d B, second %d B (resumed %d), fetched twice %d B, limit %d B", first.BytesReceived, second.BytesReceived, second.Resumed, again, limit)
	if again > limit {
		t.Fatalf("re-fetched %d bytes, more than a window plus a packet (%d)", again, limit)
	}
}

// TestConcurrentDownloads runs ten downloads at once through one server
// socket.
func TestConcurrentDownloads(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxPerAddr: 10})
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		_, tok, data := e.file("f"+string(rune('a'+i)), 512<<10+i*999, uint64(i))
		out := filepath.Join(t.TempDir(), "out")
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Download(testCtx(t, 30*time.Second), ClientConfig{Addr: e.addr, Token: tok.ID, Path: out}); err != nil {
				errs <- err
				return
			}
			if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, data) {
				errs <- errors.New("file differs")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestBusy refuses transfers beyond the per-address limit.
func TestBusy(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxPerAddr: 1, RateLimit: 1 << 20})
	_, tok, _ := e.file("a", 4<<20, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		var once sync.Once
		_, err := Download(ctx, ClientConfig{Addr: e.addr, Token: tok.ID, Path: filepath.Join(t.TempDir(), "x"),
			Progress: func(p Progress) {
				if p.Received > 0 {
					once.Do(func() { close(started) })
				}
			}})
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("first download ended: %v", err)
	}
	_, err := Download(testCtx(t, 10*time.Second), ClientConfig{Addr: e.addr, Token: tok.ID, Path: filepath.Join(t.TempDir(), "y")})
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second download: %v", err)
	}
	cancel()
	<-done
}

// TestNoResponse: with nothing listening, Download gives up with
// ErrNoResponse after FirstPacketTimeout.
func TestNoResponse(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close() // a black hole: reads nothing, answers nothing
	_, err = Download(testCtx(t, 10*time.Second), ClientConfig{Addr: pc.LocalAddr().String(), Token: "t", Path: filepath.Join(t.TempDir(), "x"),
		FirstPacketTimeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrNoResponse) {
		t.Fatalf("got %v", err)
	}
}

// TestShutdownAbortsTransfers: Shutdown with an expired context aborts a
// transfer, whose client gets ERROR shutting_down and keeps its record.
func TestShutdownAbortsTransfers(t *testing.T) {
	e := newEnv(t, ServerConfig{RateLimit: 1 << 20})
	_, tok, _ := e.file("a", 4<<20, 1)
	out := filepath.Join(t.TempDir(), "x")
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		var once sync.Once
		_, err := Download(testCtx(t, 20*time.Second), ClientConfig{Addr: e.addr, Token: tok.ID, Path: out,
			Progress: func(p Progress) {
				if p.Received > 0 {
					once.Do(func() { close(started) })
				}
			}})
		done <- err
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.srv.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown: %v", err)
	}
	var re *RemoteError
	if err := <-done; !errors.As(err, &re) || re.Code != CodeShuttingDown {
		t.Fatalf("client: %v", err)
	}
	if _, err := os.Stat(out + PartSuffix + RecordSuffix); err != nil {
		t.Fatal("no resume record")
	}
}

// TestRateShare splits RateLimit equally among the transfers.
func TestRateShare(t *testing.T) {
	s, err := NewServer(ServerConfig{Tokens: tokens.NewStore(0), RateLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if s.rateShare(1) != 1000 || s.rateShare(4) != 250 || s.rateShare(0) != 1000 {
		t.Fatal(s.rateShare(1), s.rateShare(4))
	}
	s, _ = NewServer(ServerConfig{Tokens: tokens.NewStore(0)})
	if s.rateShare(3) != 0 {
		t.Fatal("no limit gave a cap")
	}
}

// TestChecksumMismatch: a file rewritten in place (same size) after its
// token was issued fails the receiver's SHA-256 check; nothing is left
// behind, not even a resume record, and the server hears about it.
func TestChecksumMismatch(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	path, tok, data := e.file("a", 50000, 1)
	data[100] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for range 2 {
		_, err := Download(testCtx(t, 10*time.Second), ClientConfig{Addr: e.addr, Token: tok.ID, Path: out})
		if !errors.Is(err, ErrChecksum) {
			t.Fatalf("got %v", err)
		}
		for _, p := range []string{out, out + PartSuffix, out + PartSuffix + RecordSuffix} {
			if _, err := os.Stat(p); err == nil {
				t.Fatalf("%s left behind", p)
			}
		}
		var re *RemoteError
		if st := e.waitTransfer(); !errors.As(st.Err, &re) || re.Code != CodeChecksum {
			t.Fatalf("server: %v", st.Err)
		}
	}
}
