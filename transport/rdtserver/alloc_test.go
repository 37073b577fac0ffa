package rdtserver

import (
	"testing"
	"time"

	"opsassist/rdt"
)

// sendBench drives a sender as a transfer does over a clean path: DATA
// packets into a reused batch buffer, and an ACK of both for every
// second packet.
type sendBench struct {
	s     *sender
	clk   *fakeClock
	batch *rdt.SendBatch
	ack   rdt.Packet
	pn    uint32
}

// zeros is a file of zero bytes of any size, without the memory.
type zeros struct{}

func (zeros) ReadAt(b []byte, _ int64) (int, error) { clear(b); return len(b), nil }

func newSendBench(tb testing.TB, size int) *sendBench {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	rtt := &rttStats{}
	s := newSender(senderConfig{connID: 1, file: zeros{}, size: uint64(size), payload: rdt.DefaultPayload,
		window: 1 << 20, cc: newBBR(rdt.DataOverhead+rdt.DefaultPayload, 0, rtt, clk.now()), rtt: rtt}, clk.now())
	return &sendBench{s: s, clk: clk, batch: rdt.NewSendBatch(sendBatch, rdt.MaxPacketSize),
		ack: rdt.Packet{Type: rdt.TypeAck, ConnID: 1, Acks: make([]rdt.PNRange, 1), MaxOffset: 1 << 50}}
}

// two sends two packets and takes in their ACK.
func (b *sendBench) two(tb testing.TB) {
	b.clk.advance(20 * time.Microsecond) // pacing budget for two packets at ~1 Gbit/s
	for range 2 {
		p, ok := b.s.next(b.clk.now(), b.batch.Tail()[:0])
		if !ok {
			tb.Fatalf("sender stopped at pn %d (cwnd %d, inflight %d)", b.pn, b.s.cfg.cc.cwnd(), b.s.inflight)
		}
		b.batch.Add(p)
		b.pn++
	}
	if b.batch.Len() >= sendBatch {
		b.batch.Reset()
	}
	b.clk.advance(100 * time.Microsecond)
	b.ack.Acks[0] = rdt.PNRange{Lo: 0, Hi: b.pn - 1}
	b.s.onAck(&b.ack, b.clk.now())
}

// TestSendPathAllocs: choosing, reading, encoding and recording a DATA
// packet, and taking in its ACK, allocates nothing per packet in the
// steady state (the packet records' slice is reused as it is trimmed).
func TestSendPathAllocs(t *testing.T) {
	b := newSendBench(t, 1<<50)
	for range 5000 {
		b.two(t)
	}
	if n := testing.AllocsPerRun(5000, func() { b.two(t) }); n != 0 {
		t.Fatalf("%.2f allocations per two packets", n)
	}
}

// BenchmarkSendPacket measures the send path per DATA packet (1200
// bytes): sender state, the file read, the encoding, ACK processing,
// congestion control; without the socket.
func BenchmarkSendPacket(b *testing.B) {
	sb := newSendBench(b, 1<<50)
	b.SetBytes(2 * rdt.DefaultPayload)
	b.ReportAllocs()
	for b.Loop() {
		sb.two(b)
	}
}
