package rdtserver

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"opsassist/internal/rangeset"
	"opsassist/rdt"
)

// This file is a discrete-event simulator for congestion-control tests:
// real senders (sender + bbrCC + rttStats) share one bottleneck — a
// serialising link of a given rate in front of a drop-tail queue limited
// in bytes, then random loss and a fixed one-way delay — and each has a
// receiver that acknowledges like rdt's (at once out of order, every
// second packet, else after 1 ms). ACKs come back after the same delay,
// lost with the same probability, never queued. Time is virtual: the
// results depend on the seed alone, never on the machine.

// simLink is the bottleneck towards the clients.
type simLink struct {
	rate       float64 // bytes per second
	delay      time.Duration
	queueBytes int
	loss       float64
	rng        *rand.Rand

	lastDepart time.Time
	queue      []simDeparture
	queued     int
	// maxQueued is the most bytes the queue ever held.
	maxQueued int
}

type simDeparture struct {
	at   time.Time
	size int
}

// enqueue returns when a packet of size bytes arriving at now leaves the
// bottleneck, or false if the queue drops it.
func (l *simLink) enqueue(now time.Time, size int) (time.Time, bool) {
	for len(l.queue) > 0 && !l.queue[0].at.After(now) {
		l.queued -= l.queue[0].size
		l.queue = l.queue[1:]
	}
	if len(l.queue) > 0 && l.queued+size > l.queueBytes {
		return time.Time{}, false
	}
	start := now
	if l.lastDepart.After(start) {
		start = l.lastDepart
	}
	depart := start.Add(time.Duration(float64(size) / l.rate * float64(time.Second)))
	l.lastDepart = depart
	l.queue = append(l.queue, simDeparture{at: depart, size: size})
	l.queued += size
	l.maxQueued = max(l.maxQueued, l.queued)
	return depart, true
}

// simPkt is a packet on its way to a client, reduced to what the
// receiver needs.
type simPkt struct {
	at     time.Time
	flow   int
	typ    rdt.Type
	pn     uint32
	offset uint64
	length int
}

// simAck is an ACK on its way back to a server.
type simAck struct {
	at   time.Time
	flow int
	p    rdt.Packet
}

// simFlow is one transfer: its sender and the receiver at the far end.
type simFlow struct {
	snd   *sender
	cc    *bbrCC
	rtt   *rttStats
	start time.Time
	size  int

	pns       []rdt.PNRange // descending
	largest   int64
	largestAt time.Time
	unacked   int
	ackAt     time.Time
	have      rangeset.Set
	finSeen   bool
	doneAt    time.Time // all bytes and the FIN held

	// received counts new payload bytes per bin of the simulation.
	received      []int64
	queueDrops    int
	firstDropAt   time.Time
	firstDropMode int
	lost          int
	// lastNewAt is when the sender had sent every byte once.
	lastNewAt time.Time
}

// simNet is the whole simulation.
type simNet struct {
	t       *testing.T
	link    simLink
	now     time.Time
	epoch   time.Time
	bin     time.Duration
	flows   []*simFlow
	renos   []*renoFlow // loss-based competitors (netsim_reno_test.go)
	fwd     []simPkt    // FIFO: departures are ordered and the delay fixed
	back    []simAck    // FIFO too
	ackRng  *rand.Rand
	ackLoss float64
	buf     []byte
}

// simConfig describes a path: rate in bit/s, one-way delay, queue in
// bytes (0: one BDP), random loss in both directions.
type simConfig struct {
	rate       float64
	delay      time.Duration
	queueBytes int
	loss       float64
	seed       uint64
	rateCap    float64 // the server's per-transfer cap, bytes/s
}

func newSimNet(t *testing.T, c simConfig) *simNet {
	t.Helper()
	bps := c.rate / 8
	if c.queueBytes == 0 {
		c.queueBytes = int(bps * (2 * c.delay).Seconds())
	}
	epoch := time.Unix(1_000_000, 0)
	return &simNet{t: t, now: epoch, epoch: epoch, bin: 2 * c.delay,
		link: simLink{rate: bps, delay: c.delay, queueBytes: c.queueBytes, loss: c.loss,
			rng: rand.New(rand.NewPCG(c.seed, 1))},
		ackRng: rand.New(rand.NewPCG(c.seed, 2)), ackLoss: c.loss, buf: make([]byte, 0, rdt.MaxPacketSize)}
}

// rtt is the path's round-trip time without queueing.
func (n *simNet) rtt() time.Duration { return 2 * n.link.delay }

// addFlow starts a transfer of size bytes at the simulation time at,
// as the server would after a handshake that measured the path's RTT.
func (n *simNet) addFlow(size int, at time.Time, rateCap float64) *simFlow {
	rtt := &rttStats{}
	rtt.seed(n.rtt(), at)
	cc := newBBR(rdt.DataOverhead+rdt.DefaultPayload, rateCap, rtt, at)
	s := newSender(senderConfig{connID: uint64(len(n.flows) + 1), file: bytes.NewReader(make([]byte, size)), size: uint64(size),
		payload: rdt.DefaultPayload, window: rdt.DefaultWindow, cc: cc, rtt: rtt}, at)
	f := &simFlow{snd: s, cc: cc, rtt: rtt, start: at, size: size, largest: -1}
	n.flows = append(n.flows, f)
	return f
}

// run advances the simulation until every flow is done or until.
func (n *simNet) run(until time.Time) {
	n.t.Helper()
	for steps := 0; n.now.Before(until); steps++ {
		if steps > 50_000_000 {
			n.t.Fatal("simulation does not progress")
		}
		n.step()
		if n.allDone() {
			return
		}
		n.now = n.nextEvent(until)
	}
}

func (n *simNet) allDone() bool {
	if len(n.renos) > 0 {
		return false // loss-based competitors never finish
	}
	for _, f := range n.flows {
		if f.doneAt.IsZero() {
			return false
		}
	}
	return true
}

// step processes everything due at n.now.
func (n *simNet) step() {
	for len(n.fwd) > 0 && !n.fwd[0].at.After(n.now) {
		p := n.fwd[0]
		n.fwd = n.fwd[1:]
		n.receive(p)
	}
	for len(n.back) > 0 && !n.back[0].at.After(n.now) {
		a := n.back[0]
		n.back = n.back[1:]
		n.flows[a.flow].snd.onAck(&a.p, n.now)
	}
	for _, r := range n.renos {
		n.stepReno(r)
	}
	for i, f := range n.flows {
		if !f.ackAt.IsZero() && !n.now.Before(f.ackAt) {
			n.sendAck(i)
		}
		if n.now.Before(f.start) || f.snd.done {
			continue
		}
		if d := f.snd.deadline(n.now); !d.IsZero() && !n.now.Before(d) {
			f.snd.onTimer(n.now)
		}
		for {
			b, ok := f.snd.next(n.now, n.buf[:0])
			if !ok {
				break
			}
			p, err := rdt.Parse(b)
			if err != nil {
				n.t.Fatal(err)
			}
			depart, ok := n.link.enqueue(n.now, len(b))
			if !ok {
				if f.queueDrops++; f.firstDropAt.IsZero() {
					f.firstDropAt, f.firstDropMode = n.now, f.cc.mode
				}
				continue
			}
			if n.link.loss > 0 && n.link.rng.Float64() < n.link.loss {
				f.lost++
				continue
			}
			n.fwd = append(n.fwd, simPkt{at: depart.Add(n.link.delay), flow: i, typ: p.Type, pn: p.PN,
				offset: p.Offset, length: len(p.Payload)})
		}
		if f.lastNewAt.IsZero() && f.snd.finQueued {
			f.lastNewAt = n.now
		}
	}
}

// nextEvent is the earliest time anything happens after n.now.
func (n *simNet) nextEvent(until time.Time) time.Time {
	next := until
	earlier := func(t time.Time) {
		if !t.IsZero() && t.Before(next) {
			next = t
		}
	}
	if len(n.fwd) > 0 {
		earlier(n.fwd[0].at)
	}
	if len(n.back) > 0 {
		earlier(n.back[0].at)
	}
	for _, r := range n.renos {
		if len(r.events) > 0 {
			earlier(r.events[0].at)
		}
	}
	for _, f := range n.flows {
		earlier(f.ackAt)
		if n.now.Before(f.start) {
			earlier(f.start)
			continue
		}
		if !f.snd.done {
			earlier(f.snd.deadline(n.now))
		}
	}
	if !next.After(n.now) {
		next = n.now.Add(time.Microsecond)
	}
	return next
}

// receive is the client of flow p.flow getting p.
func (n *simNet) receive(p simPkt) {
	f := n.flows[p.flow]
	inOrder := int64(p.pn) == f.largest+1
	if int64(p.pn) > f.largest {
		f.largest, f.largestAt = int64(p.pn), n.now
	}
	f.pns = insertPN(f.pns, p.pn)
	switch p.typ {
	case rdt.TypeData:
		if nw := f.have.Add(p.offset, p.offset+uint64(p.length)); nw > 0 {
			bin := int(n.now.Sub(n.epoch) / n.bin)
			for len(f.received) <= bin {
				f.received = append(f.received, 0)
			}
			f.received[bin] += int64(nw)
		}
	case rdt.TypeFin:
		f.finSeen = true
	}
	complete := f.finSeen && f.have.Prefix() >= uint64(f.size)
	if complete && f.doneAt.IsZero() {
		f.doneAt = n.now
	}
	f.unacked++
	if !inOrder || f.unacked >= 2 || p.typ != rdt.TypeData || complete {
		n.sendAck(p.flow)
	} else if f.ackAt.IsZero() {
		f.ackAt = n.now.Add(time.Millisecond)
	}
}

// sendAck sends flow i's ACK back; once the file is complete it says
// done.
func (n *simNet) sendAck(i int) {
	f := n.flows[i]
	a := rdt.Packet{Type: rdt.TypeAck, ConnID: uint64(i + 1), MaxOffset: 1 << 50, Done: !f.doneAt.IsZero()}
	a.Acks = append([]rdt.PNRange(nil), f.pns[:min(len(f.pns), rdt.MaxAckRanges)]...)
	if d := n.now.Sub(f.largestAt); d > 0 {
		a.AckDelay = uint32(d.Microseconds())
	}
	f.unacked, f.ackAt = 0, time.Time{}
	if n.ackLoss > 0 && n.ackRng.Float64() < n.ackLoss {
		return
	}
	n.back = append(n.back, simAck{at: n.now.Add(n.link.delay), flow: i, p: a})
}

// insertPN adds pn to a descending list of ranges, keeping 64.
func insertPN(pns []rdt.PNRange, pn uint32) []rdt.PNRange {
	i := 0
	for i < len(pns) && pns[i].Lo > pn {
		i++
	}
	if i < len(pns) && pns[i].Hi >= pn {
		return pns
	}
	switch {
	case i > 0 && pns[i-1].Lo == pn+1 && i < len(pns) && pns[i].Hi+1 == pn:
		pns[i-1].Lo = pns[i].Lo
		pns = append(pns[:i], pns[i+1:]...)
	case i > 0 && pns[i-1].Lo == pn+1:
		pns[i-1].Lo = pn
	case i < len(pns) && pns[i].Hi+1 == pn:
		pns[i].Hi = pn
	default:
		pns = append(pns, rdt.PNRange{})
		copy(pns[i+1:], pns[i:])
		pns[i] = rdt.PNRange{Lo: pn, Hi: pn}
	}
	return pns[:min(len(pns), 2*rdt.MaxAckRanges)]
}

// completion is how long flow f took from its start to holding the
// whole file.
func (f *simFlow) completion() time.Duration {
	if f.doneAt.IsZero() {
		return 0
	}
	return f.doneAt.Sub(f.start)
}

// bytesIn returns the new bytes flow f received in [from, to).
func (n *simNet) bytesIn(f *simFlow, from, to time.Time) int64 {
	var sum int64
	for i, b := range f.received {
		at := n.epoch.Add(time.Duration(i) * n.bin)
		if !at.Before(from) && at.Before(to) {
			sum += b
		}
	}
	return sum
}
