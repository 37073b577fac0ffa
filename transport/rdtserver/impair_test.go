package rdtserver

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"opsassist/netimpair"
	"opsassist/rdt"
)

// relay puts a netimpair relay between the client and e's server and
// returns the address clients use.
func (e *testEnv) relay(fwd, rev netimpair.Impairment, seed uint64) string {
	e.t.Helper()
	r, err := netimpair.New(netimpair.Config{Listen: "127.0.0.1:0", Upstream: e.addr, Forward: fwd, Reverse: rev, Seed: seed})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { r.Close() })
	return r.Addr().String()
}

// TestDownloadThroughImpairedRelay moves files through the impairment
// relay at 0, 1, 5, 10 and 20% loss in both directions, each with 1%
// duplication, reordering and corruption and 1 ms delay, and checks they
// arrive byte-identical: 50 MiB at every level (4 MiB at the lossy ones
// with -short), plus the small edge sizes (0 B, 1 B, an exact multiple of
// the payload).
func TestDownloadThroughImpairedRelay(t *testing.T) {
	for _, loss := range []float64{0, 0.01, 0.05, 0.10, 0.20} {
		t.Run(fmt.Sprintf("loss%.0f%%", loss*100), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, ServerConfig{})
			im := netimpair.Impairment{Loss: loss, Duplicate: 0.01, Reorder: 0.01, Corrupt: 0.01, Delay: time.Millisecond}
			addr := e.relay(im, im, uint64(loss*1000)+1)
			big := 4 << 20
			if loss == 0 || !testing.Short() {
				big = 50 << 20
			}
			for _, size := range []int{0, 1, 3 * rdt.DefaultPayload, big} {
				_, tok, data := e.file("f", size, uint64(size)+7)
				// Five 50 MiB transfers run side by side; under -race on a
				// loaded 2-core machine one took 31 s. The deadline only
				// bounds a hang, so it leaves room for the machine's load.
				st := e.download(testCtx(t, 3*time.Minute), rdt.ClientConfig{Addr: addr, Token: tok.ID}, data)
				srv := e.waitTransfer()
				t.Logf("size %d: %v (%.1f Mbit/s); client dup %d B, malformed %d; server sent %d pkts, retx %d, lost %d, spurious %d, ptos %d, srtt %v",
					size, st.Duration, float64(size)*8/st.Duration.Seconds()/1e6, st.DuplicateBytes, st.Malformed,
					srv.PacketsSent, srv.Retransmits, srv.Lost, srv.Spurious, srv.PTOs, srv.SRTT)
			}
		})
	}
}

// TestResumeAfterNetworkDrop: the path dies mid-transfer (the relay
// closes); the client gives up with ErrTimeout, keeping its record, and
// the same download run again over a working path fetches only the rest.
func TestResumeAfterNetworkDrop(t *testing.T) {
	e := newEnv(t, ServerConfig{RateLimit: 8 << 20})
	const size = 4 << 20
	_, tok, data := e.file("f", size, 9)
	r, err := netimpair.New(netimpair.Config{Listen: "127.0.0.1:0", Upstream: e.addr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := filepath.Join(t.TempDir(), "out")
	var once sync.Once
	_, err = rdt.Download(testCtx(t, 30*time.Second), rdt.ClientConfig{Addr: r.Addr().String(), Token: tok.ID, Path: out, IdleTimeout: 500 * time.Millisecond,
		Progress: func(p rdt.Progress) {
			if p.Received >= size/3 {
				once.Do(func() { r.Close() })
			}
		}})
	if !errors.Is(err, rdt.ErrTimeout) {
		t.Fatalf("first run: %v", err)
	}
	st := e.download(testCtx(t, 30*time.Second), rdt.ClientConfig{Token: tok.ID, Path: out}, data)
	if st.Resumed < size/3 || st.BytesReceived > size-st.Resumed+int64(rdt.DefaultWindow*rdt.DefaultPayload) {
		t.Fatalf("resumed %d, received %d", st.Resumed, st.BytesReceived)
	}
}
