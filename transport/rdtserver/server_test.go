package rdtserver

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

	"opsassist/rdt"
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
		cfg  rdt.ClientConfig
		want error
		code rdt.ErrorCode
	}{
		{"unknown", rdt.ClientConfig{Token: "0123456789abcdef"}, rdt.ErrUnknownToken, rdt.CodeUnknownToken},
		{"expired", rdt.ClientConfig{Token: expired.ID}, rdt.ErrExpiredToken, rdt.CodeExpiredToken},
		{"reused for another file", rdt.ClientConfig{Token: tok.ID, SHA256: other.SHA256}, rdt.ErrWrongFile, rdt.CodeWrongFile},
		{"file changed", rdt.ClientConfig{Token: changed.ID}, rdt.ErrWrongFile, rdt.CodeWrongFile},
	}
	for _, c := range cases {
		c.cfg.Addr = e.addr
		c.cfg.Path = filepath.Join(t.TempDir(), "out")
		_, err := rdt.Download(testCtx(t, 10*time.Second), c.cfg)
		var re *rdt.RemoteError
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
	send := func(p rdt.Packet) int {
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
	n := send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 9, Token: tok.ID})
	b := read()
	if len(b) > n {
		t.Fatalf("answered %d bytes to %d", len(b), n)
	}
	retry, err := rdt.Parse(b)
	if err != nil || retry.Type != rdt.TypeRetry {
		t.Fatalf("%v %v", retry.Type, err)
	}
	// A forged cookie gets another RETRY, not data.
	forged := append([]byte(nil), retry.Cookie...)
	forged[len(forged)-1] ^= 1
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 9, Token: tok.ID, Cookie: forged})
	if p, err := rdt.Parse(read()); err != nil || p.Type != rdt.TypeRetry {
		t.Fatalf("forged cookie: %v %v", p.Type, err)
	}
	// A cookie for another connection id is not valid either.
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 10, Token: tok.ID, Cookie: retry.Cookie})
	if p, err := rdt.Parse(read()); err != nil || p.Type != rdt.TypeRetry {
		t.Fatalf("cookie of another connection: %v %v", p.Type, err)
	}
	// Packets other than REQUEST for unknown connections get nothing.
	send(rdt.Packet{Type: rdt.TypeAck, ConnID: 11, MaxOffset: 1 << 30})
	// The echoed cookie starts the transfer.
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 9, Token: tok.ID, Cookie: retry.Cookie})
	if p, err := rdt.Parse(read()); err != nil || p.Type != rdt.TypeData || p.ConnID != 9 {
		t.Fatalf("after the cookie: %v %v", p.Type, err)
	}
	if st := e.srv.Stats(); st.Retries != 3 || st.Dropped != 1 || st.Transfers != 1 || st.Malformed != 0 {
		t.Fatalf("stats %+v", st)
	}
	pc.WriteTo([]byte("garbage"), srv)
	send(rdt.Packet{Type: rdt.TypeError, ConnID: 9, Code: rdt.CodeCancelled})
	if st := e.waitTransfer(); st.Err == nil {
		t.Fatal("cancelled transfer reported success")
	}
	// A late or replayed REQUEST for the finished connection starts
	// nothing and gets no answer.
	before := e.srv.Stats()
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 9, Token: tok.ID, Cookie: retry.Cookie})
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 9, Token: tok.ID})
	// A fresh connection's request is the marker: once it is answered,
	// the two before were handled.
	send(rdt.Packet{Type: rdt.TypeRequest, ConnID: 12, Token: tok.ID})
	for {
		p, err := rdt.Parse(read())
		if err != nil {
			t.Fatal(err)
		}
		if p.ConnID == 12 {
			break
		}
		if p.ConnID == 9 && p.Type != rdt.TypeData {
			t.Fatalf("finished connection answered %v", p.Type)
		}
	}
	if st := e.srv.Stats(); st.Transfers != before.Transfers || st.Dropped < before.Dropped+2 {
		t.Fatalf("stats %+v after %+v", st, before)
	}
}

// TestResumeAfterKill kills a client half-way and runs it again: the
// second run resumes from the record and the file completes intact. How far the saved
// record may lag behind the bytes received depends on the disk and the
// scheduler (the syncer saves off the packet path), so this real-time
// test does not bound it: the writer's synctest tests
// (TestPartWriterSyncOffWritePath, TestPartWriterCheckpointsCoalesce in
// package rdt) prove that the newest checkpoint is the one saved. The
// kill leaves the resume record as it was last
// saved while the download ran, not as a clean exit would save it: the
// record is taken when the client is told to stop and put back after it
// stopped, as SIGKILL would leave it.
func TestResumeAfterKill(t *testing.T) {
	e := newEnv(t, ServerConfig{RateLimit: 16 << 20})
	const size = 6 << 20
	_, tok, data := e.file("big", size, 3)
	out := filepath.Join(t.TempDir(), "out")
	record := out + rdt.PartSuffix + rdt.RecordSuffix
	const window = 256
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var atKill []byte
	var killErr error
	var heldAtKill int64
	// Progress runs on a goroutine of its own, so the download goes on
	// for a moment after the kill: what it receives then is left out
	// (the bytes held at the kill stand for the first run), as SIGKILL
	// would. SmallDatagrams keeps "a packet" at the payload asked for.
	_, err := rdt.Download(ctx, rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: out, Window: window, SmallDatagrams: true,
		Progress: func(p rdt.Progress) {
			if p.Received >= size/2 && ctx.Err() == nil {
				atKill, killErr = os.ReadFile(record)
				heldAtKill = p.Received
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	if killErr != nil {
		t.Fatalf("no record after the first run: %v", killErr)
	}
	if err := os.WriteFile(record, atKill, 0o600); err != nil {
		t.Fatal(err)
	}
	second := e.download(testCtx(t, 30*time.Second), rdt.ClientConfig{Token: tok.ID, Path: out, Window: window, SmallDatagrams: true}, data)
	if second.Resumed == 0 {
		t.Fatal("nothing resumed")
	}
	t.Logf("first run held %d B at the kill, second received %d B (resumed %d), fetched twice %d B", heldAtKill, second.BytesReceived, second.Resumed, heldAtKill+second.BytesReceived-size)
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
			if _, err := rdt.Download(testCtx(t, 30*time.Second), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: out}); err != nil {
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
		_, err := rdt.Download(ctx, rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: filepath.Join(t.TempDir(), "x"),
			Progress: func(p rdt.Progress) {
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
	_, err := rdt.Download(testCtx(t, 10*time.Second), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: filepath.Join(t.TempDir(), "y")})
	if !errors.Is(err, rdt.ErrBusy) {
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
	_, err = rdt.Download(testCtx(t, 10*time.Second), rdt.ClientConfig{Addr: pc.LocalAddr().String(), Token: "t", Path: filepath.Join(t.TempDir(), "x"),
		FirstPacketTimeout: 300 * time.Millisecond})
	if !errors.Is(err, rdt.ErrNoResponse) {
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
		_, err := rdt.Download(testCtx(t, 20*time.Second), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: out,
			Progress: func(p rdt.Progress) {
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
	var re *rdt.RemoteError
	if err := <-done; !errors.As(err, &re) || re.Code != rdt.CodeShuttingDown {
		t.Fatalf("client: %v", err)
	}
	if _, err := os.Stat(out + rdt.PartSuffix + rdt.RecordSuffix); err != nil {
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
		_, err := rdt.Download(testCtx(t, 10*time.Second), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: out})
		if !errors.Is(err, rdt.ErrChecksum) {
			t.Fatalf("got %v", err)
		}
		for _, p := range []string{out, out + rdt.PartSuffix, out + rdt.PartSuffix + rdt.RecordSuffix} {
			if _, err := os.Stat(p); err == nil {
				t.Fatalf("%s left behind", p)
			}
		}
		var re *rdt.RemoteError
		if st := e.waitTransfer(); !errors.As(st.Err, &re) || re.Code != rdt.CodeChecksum {
			t.Fatalf("server: %v", st.Err)
		}
	}
}
