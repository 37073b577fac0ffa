package rdt

import (
	"path/filepath"
	"testing"
	"time"

	"opsassist/internal/partfile"
)

// recvBench is a fetch receiving in-order DATA from pre-encoded
// datagrams, as the owner loop hands them over, acknowledging as it
// goes; sends go nowhere.
type recvBench struct {
	f    *fetch
	dgs  [][]byte
	i    int
	now  time.Time
	sent int
}

func newRecvBench(tb testing.TB, payload, packets int) *recvBench {
	cfg := ClientConfig{Addr: "127.0.0.1:9", Token: "tok", Path: filepath.Join(tb.TempDir(), "out"), SmallDatagrams: true}
	if err := cfg.populate(); err != nil {
		tb.Fatal(err)
	}
	part, err := partfile.Create(cfg.Path, partfile.ID{Token: cfg.Token})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { part.Close() })
	r := &recvBench{now: time.Unix(1000, 0)}
	r.f = newFetch(&cfg, 7, part, func(*Packet) error { r.sent++; return nil }, r.now)
	r.f.part.startAsync() // as Download runs it: writes and hashing off the loop
	tb.Cleanup(func() { r.f.part.stop() })
	size := uint64(1) << 40 // never complete
	buf := make([]byte, payload)
	for pn := range packets {
		b, err := (&Packet{Type: TypeData, ConnID: 7, PN: uint32(pn), Offset: uint64(pn * payload), Size: size, Payload: buf}).Append(nil)
		if err != nil {
			tb.Fatal(err)
		}
		r.dgs = append(r.dgs, b)
	}
	return r
}

// one hands over the next datagram and sends an ACK when one is due at
// once, as the loop does.
func (r *recvBench) one(tb testing.TB) {
	r.now = r.now.Add(time.Microsecond)
	if _, err := r.f.handle(r.dgs[r.i], r.now); err != nil {
		tb.Fatal(err)
	}
	r.i++
	if r.f.recv.ackNow {
		r.f.sendAck(r.now, false)
	}
}

// TestReceivePathAllocs: taking in a DATA packet (parse, bookkeeping,
// the copy into the part-file writer) and acknowledging every second
// one allocates nothing once the buffers are warm.
func TestReceivePathAllocs(t *testing.T) {
	r := newRecvBench(t, DefaultPayload, 20000)
	for range 2000 { // warm up: chunk buffers, range lists
		r.one(t)
	}
	if n := testing.AllocsPerRun(10000, func() { r.one(t) }); n != 0 {
		t.Fatalf("%.2f allocations per packet", n)
	}
}

// BenchmarkReceivePacket measures the receive path per DATA packet
// (1200 bytes), without the socket; the part-file writer runs on its
// own goroutine, as in Download, and bounds the rate once its chunks
// are all queued.
func BenchmarkReceivePacket(b *testing.B) {
	r := newRecvBench(b, DefaultPayload, b.N+1)
	b.SetBytes(DefaultPayload)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r.one(b)
	}
}
