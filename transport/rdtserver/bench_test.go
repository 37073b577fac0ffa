package rdtserver

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"

	"opsassist/rdt"
)

// BenchmarkLoopbackDownload downloads a file over loopback with no
// bottleneck (CPU-bound), once per iteration, with every fast path and
// with each turned off. RDT_BENCH_MIB sets the file size (default 64).
//
//	RDT_BENCH_MIB=256 go test -run '^$' -bench LoopbackDownload -benchtime 3x ./transport/rdtserver
func BenchmarkLoopbackDownload(b *testing.B) {
	mib := 64
	if v, err := strconv.Atoi(os.Getenv("RDT_BENCH_MIB")); err == nil && v > 0 {
		mib = v
	}
	for _, c := range []struct {
		name string
		opts rdt.SocketOptions
	}{
		{"fast", rdt.SocketOptions{}},
		{"nogro", rdt.SocketOptions{NoGRO: true}},
		{"nogso", rdt.SocketOptions{NoGSO: true, NoGRO: true}},
		{"nobatch", rdt.SocketOptions{NoBatch: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := newEnv(b, ServerConfig{Logger: zap.NewNop(), Socket: c.opts})
			size := mib << 20
			_, tok, _ := e.file("f", size, 1)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := range b.N {
				dst := filepath.Join(b.TempDir(), "out"+strconv.Itoa(i))
				st, err := rdt.Download(testCtx(b, 5*time.Minute), rdt.ClientConfig{Addr: e.addr, Token: tok.ID, Path: dst, Socket: c.opts})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				srv := e.waitTransfer()
				b.Logf("%.0f Mbit/s, max stall %v, %d packets of %d B, retx %d, ptos %d, acks %d, srtt %v, cwnd %d",
					float64(size)*8/st.Duration.Seconds()/1e6, st.MaxStall, srv.PacketsSent, srv.Payload, srv.Retransmits, srv.PTOs, srv.AcksReceived, srv.SRTT, srv.Cwnd)
				os.Remove(dst)
				b.StartTimer()
			}
		})
	}
}
