package rdtserver

import (
	"slices"
	"time"
)

// renoFlow is a loss-based competitor for the simulator, like quic-go's
// default controller: ACK-clocked (no pacing), slow start, then one
// packet per round trip, and the window halved once per round trip of
// losses. Each packet's fate is known when the bottleneck decides it; the
// sender learns of it when the ACK — or, for a loss, the ACK of the
// packet after it — would arrive.
type renoFlow struct {
	cwnd, ssthresh float64 // packets
	inflight       int
	recoverUntil   time.Time // losses of packets sent before this are one event
	events         []renoEvent
	received       []int64 // new bytes per bin, as for simFlow
	size           int
}

type renoEvent struct {
	at     time.Time
	sentAt time.Time
	lost   bool
}

const renoPacket = 1252

// addReno starts a Reno flow at the simulation's current time.
func (n *simNet) addReno() *renoFlow {
	r := &renoFlow{cwnd: 32, ssthresh: 1e9, size: renoPacket}
	n.renos = append(n.renos, r)
	return r
}

// stepReno handles r's events due at n.now and sends what its window
// allows.
func (n *simNet) stepReno(r *renoFlow) {
	for len(r.events) > 0 && !r.events[0].at.After(n.now) {
		e := r.events[0]
		r.events = r.events[1:]
		r.inflight--
		switch {
		case e.lost && !e.sentAt.Before(r.recoverUntil):
			r.cwnd = max(r.cwnd/2, 2)
			r.ssthresh = r.cwnd
			r.recoverUntil = n.now
		case e.lost:
		case r.cwnd < r.ssthresh:
			r.cwnd++
		default:
			r.cwnd += 1 / r.cwnd
		}
	}
	for float64(r.inflight) < r.cwnd {
		r.inflight++
		depart, ok := n.link.enqueue(n.now, renoPacket)
		var e renoEvent
		switch {
		case !ok: // the next packet's ACK reveals it
			e = renoEvent{at: n.now.Add(time.Duration(float64(n.link.queued)/n.link.rate*float64(time.Second)) + n.rtt()), sentAt: n.now, lost: true}
		case n.link.loss > 0 && n.link.rng.Float64() < n.link.loss:
			e = renoEvent{at: depart.Add(n.rtt()), sentAt: n.now, lost: true}
		default:
			arrive := depart.Add(n.link.delay)
			bin := int(arrive.Sub(n.epoch) / n.bin)
			for len(r.received) <= bin {
				r.received = append(r.received, 0)
			}
			r.received[bin] += renoPacket
			e = renoEvent{at: arrive.Add(n.link.delay), sentAt: n.now}
		}
		i, _ := slices.BinarySearchFunc(r.events, e.at, func(x renoEvent, t time.Time) int { return x.at.Compare(t) })
		for i < len(r.events) && !r.events[i].at.After(e.at) {
			i++
		}
		r.events = slices.Insert(r.events, i, e)
	}
}

// renoBytesIn returns the bytes r delivered in [from, to).
func (n *simNet) renoBytesIn(r *renoFlow, from, to time.Time) int64 {
	var sum int64
	for i, b := range r.received {
		at := n.epoch.Add(time.Duration(i) * n.bin)
		if !at.Before(from) && at.Before(to) {
			sum += b
		}
	}
	return sum
}
