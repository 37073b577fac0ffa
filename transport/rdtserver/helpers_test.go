package rdtserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/rdt"
	"opsassist/storage/tokens"
)

// testEnv is a server on 127.0.0.1:0 with a token store.
type testEnv struct {
	t      testing.TB
	srv    *Server
	addr   string
	tokens *tokens.Store
	dir    string

	mu    sync.Mutex
	stats []TransferStats
	ended chan TransferStats
}

func newEnv(t testing.TB, cfg ServerConfig) *testEnv {
	t.Helper()
	e := &testEnv{t: t, tokens: tokens.NewStore(0), dir: t.TempDir(), ended: make(chan TransferStats, 64)}
	if cfg.Tokens == nil {
		cfg.Tokens = e.tokens
	}
	if cfg.Logger == nil {
		cfg.Logger = zaptest.NewLogger(t)
	}
	cfg.OnTransfer = func(st TransferStats) {
		e.mu.Lock()
		e.stats = append(e.stats, st)
		e.mu.Unlock()
		select {
		case e.ended <- st:
		default:
		}
	}
	srv, err := NewServer(cfg)
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
	e.srv, e.addr = srv, pc.LocalAddr().String()
	return e
}

// file writes a random file of size bytes and issues a token for it.
func (e *testEnv) file(name string, size int, seed uint64) (path string, tok tokens.Token, data []byte) {
	e.t.Helper()
	data = make([]byte, size)
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})
	r.Read(data)
	path = filepath.Join(e.dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		e.t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	tok, err := e.tokens.Issue(tokens.Token{Path: path, Filename: name, Size: int64(size), SHA256: hex.EncodeToString(sum[:])}, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return path, tok, data
}

// download runs Download into a fresh path and checks the result.
func (e *testEnv) download(ctx context.Context, cfg rdt.ClientConfig, want []byte) rdt.Stats {
	e.t.Helper()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(e.t.TempDir(), "out")
	}
	if cfg.Addr == "" {
		cfg.Addr = e.addr
	}
	st, err := rdt.Download(ctx, cfg)
	if err != nil {
		e.t.Fatalf("Download: %v", err)
	}
	got, err := os.ReadFile(cfg.Path)
	if err != nil {
		e.t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		e.t.Fatalf("downloaded %d bytes differ from the %d sent", len(got), len(want))
	}
	for _, p := range []string{cfg.Path + rdt.PartSuffix, cfg.Path + rdt.PartSuffix + rdt.RecordSuffix} {
		if _, err := os.Stat(p); err == nil {
			e.t.Errorf("%s left behind", p)
		}
	}
	return st
}

// waitTransfer waits for the server to report a finished transfer.
func (e *testEnv) waitTransfer() TransferStats {
	e.t.Helper()
	select {
	case st := <-e.ended:
		return st
	case <-time.After(20 * time.Second):
		e.t.Fatal("no transfer ended")
		return TransferStats{}
	}
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
