package rdtserver

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"opsassist/internal/rangeset"
	"opsassist/rdt"
)

// Loss detection constants (RFC 9002 section 6.1).
const (
	initPacketThreshold = 3
	maxPacketThreshold  = 64
	// keepLost is how far behind the largest acknowledged packet a packet
	// declared lost is still remembered, to detect spurious retransmits.
	keepLost = 1024
	// burstWindow is how much sending the pacer lets through at once: Go
	// timers wake about once a millisecond, not once per packet.
	burstWindow = 2 * time.Millisecond
	minBurst    = 4
	// dispersionPackets is how many packets of the first flight must be
	// acknowledged after its first ACK before their ACKs' spacing counts
	// as a sample of the bottleneck rate: enough that one ACK held up by
	// the receiver's scheduling does not inflate it much.
	dispersionPackets = 24
	// dispersionSpan is the least time those ACKs must span: a few timer
	// granules, so that ACKs bunched by the receiver's scheduling count
	// little (on paths so fast that the first flight arrives within it,
	// startup measures the rate the ordinary way).
	dispersionSpan = 2 * time.Millisecond
	// dispersionRounds bounds the transfers that use the dispersion
	// sample: those whose remaining bytes take at most this many
	// minimum RTTs at the measured rate (24 MiB at 100 Mbit/s and 20 ms).
	dispersionRounds = 100
)

type pktState uint8

const (
	stInflight pktState = iota + 1
	stAcked
	stLost
)

type pktKind uint8

const (
	kindData pktKind = iota + 1
	kindFin
	kindPing
)

// sentPacket is the sender's record of one packet.
type sentPacket struct {
	pn      uint32
	kind    pktKind
	state   pktState
	retrans bool
	offset  uint64
	length  int
	size    int
	sentAt  time.Time
	// Delivery-rate sampling state at send time.
	delivered   int64
	deliveredAt time.Time
	firstSentAt time.Time
	appLimited  bool
	// clean: sent below the bottleneck rate (see congestionController).
	clean bool
	// probe: a path MTU probe (pmtu.go), larger than the validated size.
	probe bool
}

// senderConfig configures a sender.
type senderConfig struct {
	connID  uint64
	file    io.ReaderAt
	size    uint64
	sha256  [32]byte
	payload int
	// window is the receiver's window in packets: the first flow-control
	// limit until its first ACK.
	window uint32
	have   []rdt.Range
	cc     congestionController
	rtt    *rttStats
}

// sender is the server side of one transfer: a state machine driven by
// ACKs and timers, with every time passed in. It is not safe for
// concurrent use; the transfer's owner goroutine drives it.
type sender struct {
	cfg senderConfig

	// payload is the DATA payload in use: cfg.payload, raised by path
	// MTU probing once a larger packet got through.
	payload   int
	probe     *pmtuProbe // nil: not probing (yet)
	capsMax   int        // the client's largest datagram (CAPS)
	lastProbe bool       // the last packet next returned is a probe

	pkts   []sentPacket // pkts[i].pn == base+i
	pktArr []sentPacket // the array pkts lives at the end of
	base   uint32
	nextPN uint32

	acked      rangeset.Set
	nextOffset uint64
	maxOffset  uint64
	retx       []rdt.Range
	// tailCopies are retransmitted ranges to send a second time: at the
	// tail nothing sent later reveals a lost retransmission, so each is
	// sent twice (see pickRetransmit).
	tailCopies []rdt.Range
	finQueued  bool // FIN was queued once
	finPending bool // a FIN waits to be sent
	finAcked   bool

	inflight     int
	largestAcked int64
	lossTime     time.Time
	ptoCount     int
	lastSentAt   time.Time
	probes       int
	// probeBefore and probed select a PTO's probes: packets sent before
	// the timer fired, each byte range at most once per timeout.
	probeBefore time.Time
	probed      rangeset.Set

	delivered          int64
	deliveredAt        time.Time
	firstSentAt        time.Time
	appLimitedUntil    int64
	nextRoundDelivered int64
	// flightAckAt and flightAcked are when the first ACK of the first
	// flight came and the bytes delivered then (dispersion samples).
	flightAckAt time.Time
	flightAcked int64

	budget  float64
	pacedAt time.Time

	pktThreshold int64
	timeThresh   float64

	done bool
	err  error

	stats TransferStats
	buf   []byte
}

// errPNExhausted ends a transfer that used up its 32-bit packet numbers
// (4.8 TiB at 1200-byte payloads); the client resumes on a new connection.
var errPNExhausted = errors.New("rdtserver: packet numbers exhausted")

// errReadFile wraps a failure to read the file being sent.
var errReadFile = errors.New("rdtserver: reading the file")

func newSender(cfg senderConfig, now time.Time) *sender {
	s := &sender{cfg: cfg, largestAcked: -1, pktThreshold: initPacketThreshold, timeThresh: 9.0 / 8,
		deliveredAt: now, firstSentAt: now, pacedAt: now, buf: make([]byte, cfg.payload), payload: cfg.payload}
	for _, r := range cfg.have {
		s.acked.Add(r.Start, min(r.End, cfg.size))
	}
	s.maxOffset = s.acked.Prefix() + uint64(max(cfg.window, 1))*uint64(cfg.payload)
	s.stats.Size = int64(cfg.size)
	s.stats.Resumed = int64(s.acked.Total())
	s.budget = math.MaxFloat64 // an idle sender may send a full burst
	s.refill(now)
	if g, _ := s.acked.FirstGap(0, cfg.size); g >= cfg.size {
		s.queueFin() // nothing to send but the FIN
	}
	return s
}

// finished reports whether the transfer is over, and its error (nil when
// the receiver confirmed the file).
func (s *sender) finished() (bool, error) { return s.done, s.err }

// allDelivered reports whether the receiver acknowledged every byte and the
// FIN: it holds the whole file, and only its confirmation is missing.
func (s *sender) allDelivered() bool {
	return s.finAcked && s.acked.Contains(0, s.cfg.size)
}

// dataAcked reports whether the receiver acknowledged, in at least one
// ACK, every byte of the file: the sender has nothing left to read.
func (s *sender) dataAcked() bool {
	return s.stats.AcksReceived > 0 && s.acked.Contains(0, s.cfg.size)
}

// onAck processes an ACK received at now.
func (s *sender) onAck(p *rdt.Packet, now time.Time) {
	if s.done {
		return
	}
	s.stats.AcksReceived++
	if p.MaxOffset > s.maxOffset {
		s.maxOffset = p.MaxOffset
	}
	if p.Done {
		s.done = true
		return
	}
	var (
		ackedBytes, cleanAcked int
		largestNew             *sentPacket
	)
	for _, r := range p.Acks {
		lo, hi := int64(r.Lo), int64(r.Hi)
		lo = max(lo, int64(s.base))
		hi = min(hi, int64(s.nextPN)-1)
		for pn := lo; pn <= hi; pn++ {
			pkt := &s.pkts[pn-int64(s.base)]
			switch pkt.state {
			case stAcked:
				continue
			case stLost:
				s.stats.Spurious++
				gap := s.largestAcked - pn + 1
				s.pktThreshold = min(max(s.pktThreshold, gap), maxPacketThreshold)
				s.timeThresh = min(s.timeThresh*1.25, 2)
			case stInflight:
				s.inflight -= pkt.size
			}
			pkt.state = stAcked
			if pkt.probe && s.probe != nil && s.probe.inflight && s.probe.pn == pkt.pn {
				s.payload = s.probe.acked()
				s.cfg.cc.setMSS(s.maxPacket())
			}
			ackedBytes += pkt.size
			if pkt.clean {
				cleanAcked += pkt.size
			}
			s.delivered += int64(pkt.size)
			switch pkt.kind {
			case kindData:
				s.acked.Add(pkt.offset, pkt.offset+uint64(pkt.length))
			case kindFin:
				s.finAcked = true
			}
			if largestNew == nil || pkt.pn > largestNew.pn {
				largestNew = pkt
			}
		}
	}
	if largestNew == nil {
		return
	}
	s.deliveredAt = now
	s.ptoCount = 0
	if int64(largestNew.pn) > s.largestAcked {
		s.largestAcked = int64(largestNew.pn)
	}
	if len(p.Acks) > 0 && largestNew.pn == p.Acks[0].Hi {
		s.cfg.rtt.update(now.Sub(largestNew.sentAt), time.Duration(p.AckDelay)*time.Microsecond, now)
	}
	sample := ackSample{acked: ackedBytes, cleanAcked: cleanAcked, rtt: s.cfg.rtt, appLimited: largestNew.appLimited}
	if largestNew.delivered >= s.nextRoundDelivered {
		sample.roundStart = true
		s.nextRoundDelivered = s.delivered
	}
	interval := max(largestNew.sentAt.Sub(largestNew.firstSentAt), now.Sub(largestNew.deliveredAt))
	s.firstSentAt = largestNew.sentAt
	if interval > 0 && interval >= s.cfg.rtt.min()/2 {
		sample.rate = float64(s.delivered-largestNew.delivered) / interval.Seconds()
	}
	if r := s.dispersionRate(largestNew, now); r > sample.rate {
		sample.rate, sample.dispersion = r, true
	}
	sample.lost, sample.cleanLost = s.detectLost(now)
	sample.inflight = s.inflight
	s.cfg.cc.onAck(now, sample)
	s.trim()
}

// dispersionRate is the first flight's delivery rate measured from its
// ACKs alone: the bytes acknowledged since its first ACK over the time
// since, once dispersionPackets were over at least dispersionSpan. The
// first flight leaves faster
// than the bottleneck, which spaces its packets out, so this measures
// the bottleneck one round trip after the start; the ordinary sample,
// whose interval includes the whole round trip, measures a fraction
// of it. Packets sent after anything was delivered end the sampling.
func (s *sender) dispersionRate(pkt *sentPacket, now time.Time) float64 {
	if pkt.delivered != 0 || pkt.retrans {
		return 0
	}
	if s.flightAckAt.IsZero() {
		s.flightAckAt, s.flightAcked = now, s.delivered
		return 0
	}
	d, el := s.delivered-s.flightAcked, now.Sub(s.flightAckAt)
	if d < int64(dispersionPackets*s.maxPacket()) || el < dispersionSpan {
		return 0
	}
	r := float64(d) / el.Seconds()
	// Only a transfer that is over within dispersionRounds round trips
	// at that rate takes the link at once: a longer one grows by its
	// ordinary samples, leaving a flow that shares the bottleneck time
	// to claim its part (the dispersion measures the capacity, not the
	// share), and loses little of its own time doing so.
	left := float64(s.cfg.size - min(s.acked.Total(), s.cfg.size))
	if left > r*dispersionRounds*s.cfg.rtt.min().Seconds() {
		return 0
	}
	return r
}

// detectLost declares lost the in-flight packets below the largest
// acknowledged one that are too far behind it, in packets or in time,
// and arms the loss timer for the others. It returns the bytes lost, and
// how many of them were sent clean.
func (s *sender) detectLost(now time.Time) (lost, cleanLost int) {
	s.lossTime = time.Time{}
	if s.largestAcked < 0 {
		return 0, 0
	}
	rtt := max(s.cfg.rtt.smoothed(), s.cfg.rtt.latest())
	delay := max(time.Duration(s.timeThresh*float64(rtt)), timerGranule)
	for i := range s.pkts {
		pkt := &s.pkts[i]
		if int64(pkt.pn) >= s.largestAcked {
			break
		}
		if pkt.state != stInflight {
			continue
		}
		if s.largestAcked-int64(pkt.pn) >= s.pktThreshold || !pkt.sentAt.After(now.Add(-delay)) {
			s.markLost(pkt)
			if pkt.probe {
				continue // a probe too large for the path is not congestion
			}
			lost += pkt.size
			if pkt.clean {
				cleanLost += pkt.size
			}
			continue
		}
		if t := pkt.sentAt.Add(delay); s.lossTime.IsZero() || t.Before(s.lossTime) {
			s.lossTime = t
		}
	}
	return lost, cleanLost
}

func (s *sender) markLost(pkt *sentPacket) {
	pkt.state = stLost
	s.inflight -= pkt.size
	s.stats.Lost++
	if pkt.probe && s.probe != nil && s.probe.inflight && s.probe.pn == pkt.pn {
		s.probe.lost()
	}
	switch pkt.kind {
	case kindData:
		s.retx = append(s.retx, rdt.Range{Start: pkt.offset, End: pkt.offset + uint64(pkt.length)})
	case kindFin:
		if !s.finAcked {
			s.finPending = true
		}
	}
}

// trim forgets acknowledged packets, and lost ones long passed, at the
// front.
func (s *sender) trim() {
	n := 0
	for n < len(s.pkts) {
		pkt := &s.pkts[n]
		if pkt.state == stAcked || pkt.state == stLost && s.largestAcked-int64(pkt.pn) > keepLost {
			n++
			continue
		}
		break
	}
	if n > 0 {
		s.pkts = s.pkts[n:]
		s.base += uint32(n)
	}
}

// ptoDeadline is when the probe timer fires, zero if nothing is in flight.
func (s *sender) ptoDeadline() time.Time {
	if s.inflight <= 0 {
		return time.Time{}
	}
	return s.lastSentAt.Add(min(s.cfg.rtt.pto()<<min(s.ptoCount, 10), maxPTO))
}

// deadline returns when onTimer should run next: the loss timer, the
// probe timer, or the time the pacer lets the next packet go. Zero means
// no timer.
func (s *sender) deadline(now time.Time) time.Time {
	if s.done {
		return time.Time{}
	}
	d := s.lossTime
	if d.IsZero() {
		d = s.ptoDeadline()
	}
	if s.hasWork() && (s.probes > 0 || s.inflight+s.maxPacket() <= s.cfg.cc.cwnd()) {
		s.refill(now)
		need := float64(s.maxPacket()) - s.budget
		t := now
		if need > 0 {
			t = now.Add(time.Duration(need / s.cfg.cc.pacingRate() * float64(time.Second)))
		}
		if d.IsZero() || t.Before(d) {
			d = t
		}
	}
	return d
}

// onTimer runs the loss or probe timer if it is due.
func (s *sender) onTimer(now time.Time) {
	if s.done {
		return
	}
	if !s.lossTime.IsZero() {
		if !now.Before(s.lossTime) {
			if lost, clean := s.detectLost(now); lost > 0 {
				s.cfg.cc.onLossOnly(now, lost, clean)
			}
		}
		return
	}
	if pto := s.ptoDeadline(); !pto.IsZero() && !now.Before(pto) {
		s.ptoCount++
		s.stats.PTOs++
		s.probes = 2
		if s.ptoCount >= blackHolePTOs && s.payload > s.cfg.payload {
			s.blackHole()
		}
		s.probeBefore, s.probed = now, rangeset.Set{}
	}
}

func (s *sender) maxPacket() int { return rdt.DataOverhead + s.payload }

// hasWork reports whether there is something to send.
func (s *sender) hasWork() bool {
	if s.probes > 0 || s.finPending || len(s.retx) > 0 || len(s.tailCopies) > 0 {
		return true
	}
	g, _ := s.acked.FirstGap(s.nextOffset, s.cfg.size)
	return g < min(s.cfg.size, s.maxOffset)
}

func (s *sender) refill(now time.Time) {
	rate := s.cfg.cc.pacingRate()
	if el := now.Sub(s.pacedAt); el > 0 {
		s.budget += rate * el.Seconds()
		s.pacedAt = now
	}
	limit := max(float64(minBurst*s.maxPacket()), rate*burstWindow.Seconds())
	s.budget = min(s.budget, limit)
}

// next appends the next packet to send at now to b. It returns false when
// nothing may be sent now; deadline says when to ask again.
func (s *sender) next(now time.Time, b []byte) ([]byte, bool) {
	if s.done {
		return b, false
	}
	if s.nextPN == math.MaxUint32 {
		s.done, s.err = true, errPNExhausted
		return b, false
	}
	probe := s.probes > 0
	if !probe {
		if s.inflight+s.maxPacket() > s.cfg.cc.cwnd() {
			return b, false
		}
		s.refill(now)
		if s.budget < float64(s.maxPacket()) {
			return b, false
		}
	}
	p := rdt.Packet{Type: rdt.TypeData, ConnID: s.cfg.connID, PN: s.nextPN, Size: s.cfg.size}
	sp := sentPacket{pn: s.nextPN, kind: kindData, state: stInflight, sentAt: now}
	s.lastProbe = false
	mtuProbe := 0 // no path MTU probe as a PTO probe: those must get through
	if !probe {
		mtuProbe = s.probe.want()
	}
	ok := s.pickRetransmit(&sp) || s.pickNew(&sp, mtuProbe)
	switch {
	case ok:
	case s.finPending:
		sp.kind = kindFin
		s.finPending = false
	case probe:
		ok = s.pickProbe(&sp)
		if !ok {
			sp.kind = kindPing
		}
	default:
		s.appLimitedUntil = s.delivered + int64(s.inflight)
		return b, false
	}
	switch sp.kind {
	case kindData:
		if cap(s.buf) < sp.length {
			s.buf = make([]byte, sp.length)
		}
		payload := s.buf[:sp.length]
		if n, err := s.cfg.file.ReadAt(payload, int64(sp.offset)); n < sp.length {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			s.done, s.err = true, fmt.Errorf("%w: %w", errReadFile, err)
			return b, false
		}
		p.Offset, p.Payload = sp.offset, payload
		s.stats.PacketsSent++
		s.stats.BytesSent += int64(sp.length)
		if sp.retrans {
			s.stats.Retransmits++
		}
	case kindFin:
		p = rdt.Packet{Type: rdt.TypeFin, ConnID: s.cfg.connID, PN: s.nextPN, Size: s.cfg.size, SHA256: s.cfg.sha256}
	case kindPing:
		p = rdt.Packet{Type: rdt.TypePing, ConnID: s.cfg.connID, PN: s.nextPN}
	}
	start := len(b)
	b, err := p.Append(b)
	if err != nil {
		s.done, s.err = true, err
		return b, false
	}
	sp.size = len(b) - start
	if s.inflight == 0 {
		s.firstSentAt, s.deliveredAt = now, now
	}
	sp.delivered, sp.deliveredAt, sp.firstSentAt = s.delivered, s.deliveredAt, s.firstSentAt
	sp.appLimited = s.delivered < s.appLimitedUntil
	if sp.probe {
		s.probe.sent(sp.pn)
		s.lastProbe = true
	}
	s.record(sp)
	s.nextPN++
	s.inflight += sp.size
	s.lastSentAt = now
	if probe {
		s.probes--
	} else {
		s.budget -= float64(sp.size)
	}
	s.pkts[len(s.pkts)-1].clean = s.cfg.cc.onSent(now, sp.size, s.inflight-sp.size)
	return b, true
}

// pickRetransmit fills sp with the first lost range not acknowledged
// since, or else with a tail copy. Once every byte was sent (the FIN is
// queued) a retransmission is queued to go out a second time: nothing
// sent after it can reveal its loss but the probe timeout, so at 10 %
// loss the last round of retransmissions would lose one in ten and
// wait a PTO and a round trip for it; two copies are both lost once in
// a hundred. The cost is one packet per packet lost in the last flight,
// nothing at 0 % loss.
func (s *sender) pickRetransmit(sp *sentPacket) bool {
	if s.pickRange(&s.retx, sp) {
		if s.finQueued {
			s.tailCopies = append(s.tailCopies, rdt.Range{Start: sp.offset, End: sp.offset + uint64(sp.length)})
		}
		return true
	}
	if s.pickRange(&s.tailCopies, sp) {
		s.stats.TailCopies++
		return true
	}
	return false
}

// pickRange fills sp with the first bytes of the ranges in q not
// acknowledged since, and takes them off q.
func (s *sender) pickRange(q *[]rdt.Range, sp *sentPacket) bool {
	for len(*q) > 0 {
		r := (*q)[0]
		g, ge := s.acked.FirstGap(r.Start, r.End)
		if g >= r.End {
			*q = (*q)[1:]
			continue
		}
		end := min(ge, g+uint64(s.payload))
		if end < r.End {
			(*q)[0] = rdt.Range{Start: end, End: r.End}
		} else {
			*q = (*q)[1:]
		}
		sp.offset, sp.length, sp.retrans = g, int(end-g), true
		return true
	}
	return false
}

// pickNew fills sp with the next bytes never sent, within the receiver's
// window: probe bytes as a path MTU probe if probe > 0 and that many
// contiguous bytes are ready, else at most the validated payload.
func (s *sender) pickNew(sp *sentPacket, probe int) bool {
	limit := min(s.cfg.size, s.maxOffset)
	g, ge := s.acked.FirstGap(s.nextOffset, s.cfg.size)
	s.nextOffset = g
	if g >= s.cfg.size {
		s.queueFin()
		return false
	}
	if g >= limit {
		return false
	}
	end := min(ge, limit, g+uint64(s.payload))
	if probe > 0 && min(ge, limit) >= g+uint64(probe) {
		end, sp.probe = g+uint64(probe), true
	}
	sp.offset, sp.length = g, int(end-g)
	s.nextOffset = end
	if end >= s.cfg.size {
		s.queueFin()
	} else if ng, _ := s.acked.FirstGap(end, s.cfg.size); ng >= s.cfg.size {
		s.queueFin()
	}
	return true
}

func (s *sender) queueFin() {
	if !s.finQueued {
		s.finQueued, s.finPending = true, true
	}
}

// pickProbe fills sp with a tail-loss probe: the newest data still in
// flight that no probe of this timeout carried yet — the last flight's
// packets are the ones nothing later can reveal as lost — or returns
// false to send a FIN (if one is in flight) or a PING. A probe's ACK
// drives the normal loss detection for everything sent before it.
func (s *sender) pickProbe(sp *sentPacket) bool {
	fin := false
	for i := len(s.pkts) - 1; i >= 0; i-- {
		pkt := &s.pkts[i]
		if pkt.state != stInflight || pkt.sentAt.After(s.probeBefore) {
			continue
		}
		switch pkt.kind {
		case kindData:
			if s.acked.Contains(pkt.offset, pkt.offset+uint64(pkt.length)) {
				continue // its bytes came through another packet
			}
			if s.probed.Contains(pkt.offset, pkt.offset+uint64(pkt.length)) {
				continue
			}
			s.probed.Add(pkt.offset, pkt.offset+uint64(pkt.length))
			sp.offset, sp.length, sp.retrans = pkt.offset, min(pkt.length, s.payload), true
			return true
		case kindFin:
			fin = true
		}
	}
	if fin {
		sp.kind = kindFin
		return true
	}
	return false
}

// onCaps takes in the client's CAPS: the largest datagram it receives.
// The first one starts path MTU probing; later ones change nothing.
func (s *sender) onCaps(maxDatagram int) {
	if s.probe == nil {
		s.capsMax = maxDatagram
		s.probe = newPMTUProbe(s.payload, maxDatagram)
		if s.probe == nil {
			s.probe = &pmtuProbe{} // nothing to try; ignore further CAPS
		}
	}
}

// sentProbe reports whether the last packet next returned is a probe.
func (s *sender) sentProbe() bool { return s.lastProbe }

// probeRefused takes back the probe next just returned, which the local
// interface refused to send whole (EMSGSIZE): its bytes go out again at
// the validated size, and probing ends.
func (s *sender) probeRefused() {
	if s.probe == nil || !s.probe.inflight || s.probe.pn < s.base {
		return
	}
	pkt := &s.pkts[s.probe.pn-s.base]
	s.probe.refused()
	if pkt.state != stInflight {
		return
	}
	pkt.state = stLost
	s.inflight -= pkt.size
	s.retx = append(s.retx, rdt.Range{Start: pkt.offset, End: pkt.offset + uint64(pkt.length)})
}

// record appends sp to the packet records. trim drops records from the
// front, so once the array is full to its end the live records slide
// back to its start when the dead prefix is at least as large as they
// are, and the array doubles otherwise: no allocation per packet, and
// each record is copied O(1) times on average.
func (s *sender) record(sp sentPacket) {
	if len(s.pkts) == cap(s.pkts) {
		if dead := cap(s.pktArr) - cap(s.pkts); dead > 0 && dead >= len(s.pkts) {
			s.pkts = s.pktArr[:copy(s.pktArr[:cap(s.pktArr)], s.pkts)]
		} else {
			grown := make([]sentPacket, len(s.pkts), 2*len(s.pkts)+64)
			copy(grown, s.pkts)
			s.pkts, s.pktArr = grown, grown
		}
	}
	s.pkts = append(s.pkts, sp)
}
