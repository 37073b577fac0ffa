package rdtserver

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/zap"

	"opsassist/netimpair"
	"opsassist/rdt"
)

// TestBottleneckGoodput measures goodput through a 100 Mbit/s bottleneck
// with 10 ms one-way delay at 0, 1, 5 and 10% loss — the benchmark's
// scenario. It only runs with RDT_PERF=1 (timing under -race is
// meaningless); it then fails below the goodput targets.
func TestBottleneckGoodput(t *testing.T) {
	if os.Getenv("RDT_PERF") == "" {
		t.Skip("set RDT_PERF=1 to measure goodput")
	}
	const rate = 100_000_000
	for _, loss := range []float64{0, 0.01, 0.05, 0.10} {
		t.Run(fmt.Sprintf("loss%.0f%%", loss*100), func(t *testing.T) {
			e := newEnv(t, ServerConfig{Logger: zap.NewNop(), MaxDatagram: ethernetDatagram})
			fwd := netimpair.Impairment{Delay: 10 * time.Millisecond}
			rev := netimpair.Impairment{Rate: rate, Delay: 10 * time.Millisecond, Loss: loss}
			addr := e.relay(fwd, rev, 42)
			size := 32 << 20
			_, tok, data := e.file("f", size, 1)
			st := e.download(testCtx(t, 120*time.Second), rdt.ClientConfig{Addr: addr, Token: tok.ID}, data)
			srv := e.waitTransfer()
			good := float64(size) * 8 / st.Duration.Seconds()
			frac := good / (rate * (1 - loss))
			t.Logf("loss %.0f%%: %.1f Mbit/s = %.0f%% of bottleneck×(1−loss); max stall %v; sent %d pkts, retx %d, lost %d, spurious %d (%.2f%%), ptos %d, srtt %v min %v bw %.1f Mbit/s",
				loss*100, good/1e6, frac*100, st.MaxStall, srv.PacketsSent, srv.Retransmits, srv.Lost, srv.Spurious,
				100*float64(srv.Spurious)/float64(srv.PacketsSent), srv.PTOs, srv.SRTT, srv.MinRTT, srv.Bandwidth*8/1e6)
			want := 0.8
			if loss >= 0.1 {
				want = 0.6
			}
			if frac < want {
				t.Errorf("goodput %.0f%% below %.0f%%", frac*100, want*100)
			}
			if spurious := float64(srv.Spurious) / float64(srv.PacketsSent); spurious > 0.02 {
				t.Errorf("spurious retransmissions %.2f%% of packets", spurious*100)
			}
			if st.MaxStall > 200*time.Millisecond {
				t.Errorf("stalled %v", st.MaxStall)
			}
		})
	}
}

// TestBottleneckQueueLoss measures how much a transfer loses to a small
// bottleneck queue when there is no random loss: congestion control must
// back off rather than overflow the queue all the time. RDT_PERF=1 only.
func TestBottleneckQueueLoss(t *testing.T) {
	if os.Getenv("RDT_PERF") == "" {
		t.Skip("set RDT_PERF=1 to measure")
	}
	for _, q := range []int{32, 128} {
		t.Run(fmt.Sprintf("queue%d", q), func(t *testing.T) {
			e := newEnv(t, ServerConfig{Logger: zap.NewNop(), MaxDatagram: ethernetDatagram})
			addr := e.relay(netimpair.Impairment{Delay: 10 * time.Millisecond},
				netimpair.Impairment{Rate: 50_000_000, QueuePackets: q, Delay: 10 * time.Millisecond}, 1)
			size := 16 << 20
			_, tok, data := e.file("f", size, 1)
			st := e.download(testCtx(t, 120*time.Second), rdt.ClientConfig{Addr: addr, Token: tok.ID}, data)
			srv := e.waitTransfer()
			lossRate := float64(srv.Lost) / float64(srv.PacketsSent)
			t.Logf("queue %d: %.1f Mbit/s, lost %.2f%%, spurious %d, srtt %v, backoffs visible in bw %.1f Mbit/s",
				q, float64(size)*8/st.Duration.Seconds()/1e6, lossRate*100, srv.Spurious, srv.SRTT, srv.Bandwidth*8/1e6)
			if lossRate > 0.10 { // most of it in startup, which probes at 2.77×
				t.Errorf("lost %.1f%% to the queue", lossRate*100)
			}
		})
	}
}

// ethernetDatagram is the largest UDP payload on a 1500-byte MTU path
// over IPv6: the relay runs on loopback and emulates no MTU, so the
// bottleneck measurements cap probing there, as a WAN path would.
const ethernetDatagram = 1452
