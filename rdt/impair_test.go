package rdt

import (
	"fmt"
	"os"
	"testing"
	"time"

	"opsassist/netimpair"
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
// arrive byte-identical. The 0% case moves 50 MiB; the lossy ones 4 MiB
// (50 MiB with RDT_FULL=1, about 45 s under -race on two cores), plus the
// small edge sizes (0 B, 1 B, an exact multiple of the payload).
func TestDownloadThroughImpairedRelay(t *testing.T) {
	for _, loss := range []float64{0, 0.01, 0.05, 0.10, 0.20} {
		t.Run(fmt.Sprintf("loss%.0f%%", loss*100), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, ServerConfig{})
			im := netimpair.Impairment{Loss: loss, Duplicate: 0.01, Reorder: 0.01, Corrupt: 0.01, Delay: time.Millisecond}
			addr := e.relay(im, im, uint64(loss*1000)+1)
			big := 4 << 20
			if loss == 0 || os.Getenv("RDT_FULL") != "" {
				big = 50 << 20
			}
			for _, size := range []int{0, 1, 3 * DefaultPayload, big} {
				_, tok, data := e.file("f", size, uint64(size)+7)
				st := e.download(testCtx(t, 60*time.Second), ClientConfig{Addr: addr, Token: tok.ID}, data)
				srv := e.waitTransfer()
				t.Logf("size %d: %v (%.1f Mbit/s); client dup %d B, malformed %d; server sent %d pkts, retx %d, lost %d, spurious %d, ptos %d, srtt %v",
					size, st.Duration, float64(size)*8/st.Duration.Seconds()/1e6, st.DuplicateBytes, st.Malformed,
					srv.PacketsSent, srv.Retransmits, srv.Lost, srv.Spurious, srv.PTOs, srv.SRTT)
			}
		})
	}
}
