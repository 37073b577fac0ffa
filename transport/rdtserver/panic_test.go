package rdtserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/rdt"
	"opsassist/storage/tokens"
)

// panicOnData is a PacketConn whose first DATA write panics, as a bug in
// a transfer's loop would.
type panicOnData struct {
	net.PacketConn
	fired atomic.Bool
}

func (p *panicOnData) WriteTo(b []byte, addr net.Addr) (int, error) {
	if pk, err := rdt.Parse(b); err == nil && pk.Type == rdt.TypeData && p.fired.CompareAndSwap(false, true) {
		panic("bug in the send path")
	}
	return p.PacketConn.WriteTo(b, addr)
}

// TestTransferPanicEndsThatTransfer: a panic in one transfer's loop ends
// that transfer with an internal error to its client; the server lives
// and the next download succeeds.
func TestTransferPanicEndsThatTransfer(t *testing.T) {
	toks := tokens.NewStore(0)
	ended := make(chan TransferStats, 4)
	srv, err := NewServer(ServerConfig{Tokens: toks, Logger: zaptest.NewLogger(t), OnTransfer: func(st TransferStats) { ended <- st }})
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(&panicOnData{PacketConn: pc}) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	data := bytes.Repeat([]byte("opsassist "), 20000)
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	addr := pc.LocalAddr().String()
	get := func() error {
		tok, err := toks.Issue(tokens.Token{Path: path, Filename: "f", Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		_, err = rdt.Download(testCtx(t, 20*time.Second), rdt.ClientConfig{Addr: addr, Token: tok.ID, Path: filepath.Join(t.TempDir(), "out")})
		return err
	}
	var re *rdt.RemoteError
	if err := get(); !errors.As(err, &re) || re.Code != rdt.CodeInternal {
		t.Fatalf("first download: %v", err)
	}
	if st := <-ended; !errors.Is(st.Err, errPanicked) {
		t.Fatalf("first transfer ended with %v", st.Err)
	}
	if err := get(); err != nil {
		t.Fatalf("second download: %v", err)
	}
}

// panicTokens is a TokenStore whose first redeem panics, as a bug on the
// Serve goroutine would.
type panicTokens struct {
	TokenStore
	fired atomic.Bool
}

func (p *panicTokens) Redeem(c tokens.Claim, now time.Time) (tokens.Grant, error) {
	if p.fired.CompareAndSwap(false, true) {
		panic("bug in the token lookup")
	}
	return p.TokenStore.Redeem(c, now)
}

// TestRequestPanicKeepsServing: a panic while handling a REQUEST on the
// Serve goroutine (it used to kill the daemon) answers that client with
// an internal error; the next download succeeds.
func TestRequestPanicKeepsServing(t *testing.T) {
	toks := tokens.NewStore(0)
	srv, err := NewServer(ServerConfig{Tokens: &panicTokens{TokenStore: toks}, Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(pc) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	data := bytes.Repeat([]byte("opsassist "), 2000)
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	get := func() error {
		tok, err := toks.Issue(tokens.Token{Path: path, Filename: "f", Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		_, err = rdt.Download(testCtx(t, 20*time.Second), rdt.ClientConfig{Addr: pc.LocalAddr().String(), Token: tok.ID, Path: filepath.Join(t.TempDir(), "out")})
		return err
	}
	var re *rdt.RemoteError
	if err := get(); !errors.As(err, &re) || re.Code != rdt.CodeInternal {
		t.Fatalf("first download: %v", err)
	}
	if err := get(); err != nil {
		t.Fatalf("second download: %v", err)
	}
}
