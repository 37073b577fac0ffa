package rdt

import (
	"testing"
	"time"
)

// fakeClock is virtual time for the state machines.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time                    { return c.t }
func (c *fakeClock) advance(d time.Duration) time.Time { c.t = c.t.Add(d); return c.t }

// TestReceiverAcks: in-order packets are acknowledged every second
// packet or after the delay; a gap is acknowledged at once with SACK
// ranges; duplicates are counted.
func TestReceiverAcks(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	r := newReceiver(1, 1000, 10, nil, -1)
	data := func(pn uint32, off uint64) *Packet {
		return &Packet{Type: TypeData, PN: pn, Offset: off, Size: 5000, Payload: make([]byte, 1000)}
	}
	if w, err := r.onData(data(0, 0), clk.now()); !w || err != nil {
		t.Fatal(w, err)
	}
	if r.ackDue(clk.now()) {
		t.Fatal("ack after one packet")
	}
	if d := r.ackDeadline(); d.Sub(clk.now()) != ackDelay {
		t.Fatalf("ack deadline %v", d)
	}
	r.onData(data(1, 1000), clk.now())
	if !r.ackDue(clk.now()) {
		t.Fatal("no ack after two packets")
	}
	a := r.ack(clk.now(), false)
	if len(a.Acks) != 1 || a.Acks[0] != (PNRange{0, 1}) || a.MaxOffset != 2000+10*1000 {
		t.Fatalf("%+v", a)
	}
	r.onData(data(3, 3000), clk.now()) // 2 missing
	if !r.ackDue(clk.now()) {
		t.Fatal("gap not acknowledged at once")
	}
	a = r.ack(clk.now(), false)
	if len(a.Acks) != 2 || a.Acks[0] != (PNRange{3, 3}) || a.Acks[1] != (PNRange{0, 1}) {
		t.Fatalf("%+v", a.Acks)
	}
	if w, _ := r.onData(data(4, 3000), clk.now()); w || r.stats.DuplicateBytes != 1000 {
		t.Fatal("duplicate bytes not detected")
	}
	if _, err := r.onData(&Packet{Type: TypeData, PN: 5, Offset: 4500, Size: 5000, Payload: make([]byte, 1000)}, clk.now()); err == nil {
		t.Fatal("data beyond the end accepted")
	}
	if _, err := r.onData(&Packet{Type: TypeData, PN: 5, Offset: 0, Size: 6000, Payload: make([]byte, 10)}, clk.now()); err == nil {
		t.Fatal("another size accepted")
	}
	r.onData(data(6, 2000), clk.now())
	r.onData(data(7, 4000), clk.now())
	if r.complete() {
		t.Fatal("complete without FIN")
	}
	r.onFin(&Packet{Type: TypeFin, PN: 8, Size: 5000}, clk.now())
	if !r.complete() {
		t.Fatal("not complete")
	}
}

// TestLargestRanges keeps the largest held ranges for the REQUEST.
func TestLargestRanges(t *testing.T) {
	rs := []Range{{0, 10}, {20, 21}, {30, 60}, {70, 72}}
	got := largestRanges(append([]Range(nil), rs...), 2)
	if len(got) != 2 || got[0] != (Range{0, 10}) || got[1] != (Range{30, 60}) {
		t.Fatalf("%v", got)
	}
}
