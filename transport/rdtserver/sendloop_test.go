package rdtserver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/rdt"
)

// TestDownloadSocketFallbacks: with each fast path forced off on both
// sides (no GSO, no GRO, no batched system calls at all) downloads of
// sizes around the batch and chunk boundaries arrive intact.
func TestDownloadSocketFallbacks(t *testing.T) {
	for _, o := range []rdt.SocketOptions{{}, {NoGSO: true}, {NoGRO: true}, {NoBatch: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			e := newEnv(t, ServerConfig{Socket: o})
			for i, size := range []int{0, 1, 1200 * 32, 1<<20 + 7, 3 << 20} {
				_, tok, data := e.file(fmt.Sprint("f", i), size, uint64(i))
				e.download(testCtx(t, time.Minute), rdt.ClientConfig{Token: tok.ID, Socket: o}, data)
			}
		})
	}
}

// TestProgressBlockedDownloadGoesOn: a progress callback that blocks (a
// stuck terminal) does not hold up the packets: the whole file arrives,
// is verified and confirmed to the server while the callback is still
// blocked; Download returns once it is released, after the last report.
func TestProgressBlockedDownloadGoesOn(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	_, tok, data := e.file("f", 4<<20, 9)
	release := make(chan struct{})
	var last rdt.Progress
	calls := 0
	done := make(chan error, 1)
	out := filepath.Join(t.TempDir(), "out")
	go func() {
		_, err := rdt.Download(testCtx(t, time.Minute), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: out, Progress: func(p rdt.Progress) {
			if calls == 0 {
				<-release
			}
			calls++
			last = p
		}})
		done <- err
	}()
	if srv := e.waitTransfer(); srv.Err != nil { // confirmed while the callback blocks
		t.Fatalf("transfer: %v", srv.Err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file differs (%v)", err)
	}
	if last.Received != int64(len(data)) || calls < 2 {
		t.Fatalf("last report %+v after %d calls", last, calls)
	}
}
