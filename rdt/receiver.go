package rdt

import (
	"errors"
	"time"

	"opsassist/internal/rangeset"
)

// Receiver constants.
const (
	// ackEvery is how many packets may arrive in order before an ACK.
	ackEvery = 2
	// ackDelay is how long the receiver holds an ACK for in-order data.
	ackDelay = time.Millisecond
	// keepPNRanges is how many packet-number ranges the receiver
	// remembers; ACKs carry the highest MaxAckRanges of them.
	keepPNRanges = 2 * MaxAckRanges
	// DefaultWindow is the default receive window in packets.
	DefaultWindow = 4096
)

// errInconsistent marks a packet contradicting what the server said
// before (another size, data beyond the end).
var errInconsistent = errors.New("rdt: packet inconsistent with the transfer")

// receiver is the client side of one transfer: it tracks which bytes and
// which packet numbers arrived, and when to acknowledge. The caller does
// the I/O. It is not safe for concurrent use.
type receiver struct {
	connID  uint64
	payload int
	window  uint32

	have    rangeset.Set
	size    int64 // -1 until known
	sha256  [32]byte
	finSeen bool

	pns       []PNRange // descending
	ackRanges []PNRange // the last ACK's ranges, reused
	largest   int64
	largestAt time.Time
	unacked   int
	ackAt     time.Time // zero: no ACK pending
	ackNow    bool
	// ackGap: what makes ackNow is a packet out of order (a gap, a fill,
	// a duplicate), a FIN or a PING — news the sender acts on at once,
	// not the every-second-packet rule.
	ackGap bool

	stats Stats
}

func newReceiver(connID uint64, payload int, window uint32, have []Range, size int64) *receiver {
	r := &receiver{connID: connID, payload: payload, window: window, size: size, largest: -1}
	for _, h := range have {
		r.have.Add(h.Start, h.End)
	}
	r.stats.Resumed = int64(r.have.Total())
	return r
}

// onData records a DATA packet and returns whether its payload must be
// written (false for a duplicate or an inconsistent packet).
func (r *receiver) onData(p *Packet, now time.Time) (bool, error) {
	if r.size >= 0 && int64(p.Size) != r.size || p.Offset+uint64(len(p.Payload)) > p.Size || p.Offset+uint64(len(p.Payload)) < p.Offset {
		return false, errInconsistent
	}
	r.size = int64(p.Size)
	r.notePN(p.PN, now)
	r.stats.BytesReceived += int64(len(p.Payload))
	if len(p.Payload) == 0 {
		return false, nil
	}
	end := p.Offset + uint64(len(p.Payload))
	n := r.have.Add(p.Offset, end)
	r.stats.DuplicateBytes += int64(uint64(len(p.Payload)) - n)
	return n > 0, nil
}

// onFin records a FIN.
func (r *receiver) onFin(p *Packet, now time.Time) error {
	if r.size >= 0 && int64(p.Size) != r.size {
		return errInconsistent
	}
	r.size, r.sha256, r.finSeen = int64(p.Size), p.SHA256, true
	r.notePN(p.PN, now)
	r.ackNow, r.ackGap = true, true
	return nil
}

// onPing records a PING.
func (r *receiver) onPing(p *Packet, now time.Time) {
	r.notePN(p.PN, now)
	r.ackNow, r.ackGap = true, true
}

// notePN records a packet number and decides when to acknowledge.
func (r *receiver) notePN(pn uint32, now time.Time) {
	r.stats.PacketsReceived++
	inOrder := int64(pn) == r.largest+1
	if int64(pn) > r.largest {
		r.largest, r.largestAt = int64(pn), now
	}
	r.insertPN(pn)
	r.unacked++
	if !inOrder {
		r.ackNow, r.ackGap = true, true
	} else if r.unacked >= ackEvery {
		r.ackNow = true
	} else if r.ackAt.IsZero() {
		r.ackAt = now.Add(ackDelay)
	}
}

// insertPN adds pn to the descending range list.
func (r *receiver) insertPN(pn uint32) {
	i := 0
	for i < len(r.pns) && r.pns[i].Lo > pn {
		i++
	}
	// r.pns[i].Lo <= pn (or i == len): pn is in it, or above it.
	if i < len(r.pns) && r.pns[i].Hi >= pn {
		return // duplicate
	}
	switch {
	case i > 0 && r.pns[i-1].Lo == pn+1 && i < len(r.pns) && r.pns[i].Hi+1 == pn:
		r.pns[i-1].Lo = r.pns[i].Lo
		r.pns = append(r.pns[:i], r.pns[i+1:]...)
	case i > 0 && r.pns[i-1].Lo == pn+1:
		r.pns[i-1].Lo = pn
	case i < len(r.pns) && r.pns[i].Hi+1 == pn:
		r.pns[i].Hi = pn
	default:
		r.pns = append(r.pns, PNRange{})
		copy(r.pns[i+1:], r.pns[i:])
		r.pns[i] = PNRange{Lo: pn, Hi: pn}
	}
	if len(r.pns) > keepPNRanges {
		r.pns = r.pns[:keepPNRanges]
	}
}

// complete reports whether the FIN arrived and every byte is held.
func (r *receiver) complete() bool {
	return r.finSeen && r.have.Prefix() >= uint64(r.size)
}

// ackDeadline is when a delayed ACK is due, zero if none is pending.
func (r *receiver) ackDeadline() time.Time {
	if r.ackNow && r.ackAt.IsZero() {
		return time.Time{}
	}
	return r.ackAt
}

// ackDue reports whether an ACK should be sent at now.
func (r *receiver) ackDue(now time.Time) bool {
	return r.ackNow || !r.ackAt.IsZero() && !now.Before(r.ackAt)
}

// maxOffset is the flow-control limit: the window beyond the contiguous
// prefix.
func (r *receiver) maxOffset() uint64 {
	return r.have.Prefix() + uint64(r.window)*uint64(r.payload)
}

// ack builds an ACK for everything received so far and clears the
// pending state. done says the file is verified and in place. The
// ACK's ranges are valid until the next call.
func (r *receiver) ack(now time.Time, done bool) Packet {
	p := Packet{Type: TypeAck, ConnID: r.connID, MaxOffset: r.maxOffset(), Done: done}
	n := min(len(r.pns), MaxAckRanges)
	r.ackRanges = append(r.ackRanges[:0], r.pns[:n]...)
	p.Acks = r.ackRanges
	if r.largest >= 0 {
		if d := now.Sub(r.largestAt); d > 0 {
			p.AckDelay = uint32(min(d.Microseconds(), 1<<32-1))
		}
	}
	r.unacked, r.ackAt, r.ackNow, r.ackGap = 0, time.Time{}, false, false
	r.stats.AcksSent++
	return p
}

// heldRanges returns the byte ranges held, ascending.
func (r *receiver) heldRanges() []Range {
	rs := r.have.Ranges()
	out := make([]Range, len(rs))
	for i, x := range rs {
		out[i] = Range{x.Start, x.End}
	}
	return out
}
