package rdtserver

import (
	"math"
	"time"
)

// bbr modes.
const (
	bbrStartup = iota
	bbrDrain
	bbrProbeBW
	bbrProbeRTT
)

// BBR-style parameters.
const (
	startupGain = 2.77
	drainGain   = 1 / 2.77
	// cwndGain bounds what is in flight to twice the estimated BDP: the
	// estimate does not exceed the real bottleneck for long, so the
	// sender's own queue stays below one BDP.
	cwndGain = 2.0
	// startupCwndGain bounds startup (BBR's 2.77 there filled the queue
	// 1.77 BDP deep): with the estimate at the bottleneck's rate from the
	// first round on (the first flight's dispersion), startup queues
	// half a BDP, and a one-BDP queue does not overflow.
	startupCwndGain = 1.5
	bwWindowRounds  = 10
	// initialWindow is the first flight in packets when the server has
	// no rate cap; with one, the first flight is the cap × the first RTT
	// sample, between minInitialWindow and maxInitialWindow packets.
	initialWindow    = 64
	minInitialWindow = 10
	maxInitialWindow = 128
	// firstFlightSpread is how much faster than one flight per handshake
	// RTT the first flight leaves: 64 packets in 1/8 of a 20 ms round
	// trip is 250 Mbit/s, faster than the bottleneck of most paths, so
	// that the bottleneck spaces the packets out and their ACKs'
	// dispersion measures its rate (sender.go).
	firstFlightSpread = 8
	// measuredGain is the startup pacing gain once the first flight's
	// dispersion measured the bottleneck (came in below measuredBelow ×
	// the first flight's own rate): the rate is known, the link is
	// filled at once, and probing at 2.77× would only build a queue that
	// a shallow buffer cannot hold.
	measuredGain  = 1.25
	measuredBelow = 0.8
	// hintRounds is the last round in which the first flight's dispersion
	// rate counts: by its end the delivery rate of packets sent at the
	// measured rate was sampled, so an estimate inflated by ACKs that
	// the receiver sent in a bunch (a loaded machine) lasts two round
	// trips, not the filter's ten.
	hintRounds = 3
	// fullBWGrowth and fullBWRounds end startup once the estimate stopped
	// growing by 25% for three rounds.
	fullBWGrowth = 1.25
	fullBWRounds = 3
	// maxLossComp caps the loss compensation: the pacing rate is raised by
	// 1/(1−random loss) so that random loss does not lower the goodput,
	// up to this loss rate.
	maxLossComp = 0.25
	// cleanBatch is how many packets' worth of clean samples update the
	// random-loss estimate at once; cleanWeight is the EWMA weight.
	cleanBatch  = 64
	cleanWeight = 0.25
	// queueLoss and queueRTT detect a real bottleneck queue: a round with
	// more loss than the random loss by this margin while even its
	// smallest RTT sample exceeds the minimum by the factor.
	queueLoss  = 0.03
	queueRTT   = 1.25
	queueSlack = 2 * time.Millisecond
	// burstLoss detects a shallow queue overflowing without much RTT
	// growth: a round losing more than twice the random loss plus this.
	burstLoss = 0.05
	// unknownLoss is the random loss rate assumed before clean samples
	// measured it.
	unknownLoss      = 0.03
	unknownLossLater = 0.10 // for the burst test
	// lossEstimatePackets is about how many packets the random-loss
	// estimate averages (an EWMA of weight cleanWeight over batches of
	// cleanBatch: cleanBatch × (2 − w) / w), for its noise.
	lossEstimatePackets = cleanBatch * (2 - cleanWeight) / cleanWeight
	// persistentRounds is how many rounds in a row with a standing queue
	// — a whole probe cycle, whose 0.75 phase drains a queue of the
	// sender's own — mean another flow holds the queue: the estimate is
	// cut so the other flow gets its share.
	persistentRounds = 8
	// backoffFactor scales the bandwidth estimate down on a detected
	// bottleneck queue.
	backoffFactor = 0.85
	// probeQuantum is the least a probe phase adds, in packets per round.
	probeQuantum = 32
	// probeRTTInterval is how long the minimum RTT may go without a
	// sample within 1/8 of it (a standing queue all along, as with
	// flows sharing the bottleneck) before PROBE_RTT drains the queue to
	// measure it again;
	// probeRTTTime is how long PROBE_RTT holds the window at half a BDP.
	probeRTTInterval = 5 * time.Second
	probeRTTTime     = 200 * time.Millisecond
	// aggRounds is how many rounds one of the two ACK-aggregation maxima
	// covers (BBR's extra_acked window: the estimate spans 5–10 rounds);
	// maxAggregation caps the window the aggregation adds, in time at
	// the estimated rate, so that a path whose ACKs come in bunches adds
	// at most that much queue.
	aggRounds      = 5
	maxAggregation = 4 * time.Millisecond
)

var probeGains = [...]float64{1.25, 0.75, 1, 1, 1, 1, 1, 1}

// bbrCC estimates the bottleneck bandwidth from delivery-rate samples (max
// over ten rounds) and the minimum RTT, and paces at a gain of that
// estimate. Unlike loss-based control it does not halve on isolated
// random losses. Random loss is measured on "clean" packets — sent while
// no queue of the sender's own can overflow, in PROBE_BW in the second
// half of the 0.75-gain phase, in rounds that show no standing queue —
// and compensates the pacing rate, so goodput rather than send rate
// matches the link. Loss above that random rate by more than its
// sampling noise, with a standing queue (RTT inflation) or far above it
// without, or a queue that persists through a whole probe cycle, is the
// signature of a real bottleneck or of another flow, and cuts the
// estimate. The first flight leaves fast and its ACKs' dispersion
// measures the bottleneck one round trip after the start (sender.go).
// See docs/protocol/rdt.md.
type bbrCC struct {
	mss      int
	rateCap  float64 // bytes/s, 0: none
	rtt      rttEstimator
	mode     int
	bwRounds [bwWindowRounds]float64
	round    int
	maxBW    float64

	fullBW       float64
	fullBWCount  int
	cycleIdx     int
	cycleStart   time.Time
	minRTT       time.Duration
	minRTTAt     time.Time // when minRTT last fell or was confirmed
	lastInflight int

	// per-round loss and RTT tracking
	roundAcked, roundLost int
	roundMinRTT           time.Duration
	queuedRounds          int // rounds in a row with a standing queue
	// clean-sample accumulation and the random-loss estimate
	cleanAcked, cleanLost int
	// roundCleanAcked and roundCleanLost are this round's clean samples,
	// added to the above when the round ends without a standing queue.
	roundCleanAcked, roundCleanLost int
	lossAvg                         float64
	lossKnown                       bool // lossAvg has had a batch of clean samples
	backoffs                        int

	probeRTTDone time.Time // end of PROBE_RTT
	probeRTTPrev int       // the mode PROBE_RTT returns to

	// firstFlight holds until the first flight's ACKs measured the
	// bottleneck (a dispersion sample) or the first round ended: until
	// then the window and the pacing rate never fall below the first
	// flight's, which the first ACKs' small delivery-rate samples would
	// otherwise throttle to a trickle.
	firstFlight bool
	// measured: the first flight's dispersion measured the bottleneck.
	measured bool
	// hint is the first flight's dispersion rate, part of the estimate
	// until round hintRounds ends.
	hint float64
	// sentRate is the first flight's pacing rate when its first packet
	// left (the minimum RTT, which it derives from, falls later).
	sentRate float64

	// ACK aggregation (BBR's extra_acked): bytes acknowledged since
	// aggEpoch beyond what the estimated rate delivers in that time,
	// the max over two windows of aggRounds rounds each.
	aggEpoch      time.Time
	aggEpochAcked int
	aggMax        [2]int
	aggIdx        int
	aggRound      int
}

var _ congestionController = (*bbrCC)(nil)

// newBBR returns a controller for packets of mss bytes, pacing at most
// rateCap bytes per second (0: no cap). rtt is the transfer's RTT
// estimator: its first sample (the handshake's) sizes the first flight
// and paces it over 1/firstFlightSpread of a round trip.
func newBBR(mss int, rateCap float64, rtt rttEstimator, now time.Time) *bbrCC {
	return &bbrCC{mss: mss, rateCap: rateCap, rtt: rtt, cycleStart: now, minRTTAt: now, firstFlight: true, aggEpoch: now}
}

// baseRTT is the minimum RTT: measured once ACKs arrive, before that the
// handshake's sample.
func (b *bbrCC) baseRTT() time.Duration {
	if b.minRTT > 0 {
		return b.minRTT
	}
	return b.rtt.min()
}

// initialCwnd is the first flight: initialWindow packets, or with a rate
// cap the cap's BDP at the first RTT sample, within bounds.
func (b *bbrCC) initialCwnd() int {
	if b.rateCap <= 0 {
		return initialWindow * b.mss
	}
	w := int(b.rateCap * b.baseRTT().Seconds())
	return min(max(w, minInitialWindow*b.mss), maxInitialWindow*b.mss)
}

func (b *bbrCC) onSent(now time.Time, _, inflight int) bool {
	if b.sentRate == 0 {
		b.sentRate = b.pacingRate()
	}
	switch b.mode {
	case bbrStartup:
		// Below the estimated BDP the sender cannot have filled a queue of
		// one BDP while the estimate lags the real bandwidth — not so once
		// the first flight's dispersion measured the link's capacity.
		return !b.measured && b.maxBW > 0 && inflight <= b.bdp()
	case bbrProbeBW:
		return probeGains[b.cycleIdx] < 1 && now.Sub(b.cycleStart) >= b.phase()/2
	}
	return false
}

func (b *bbrCC) onLossOnly(_ time.Time, lost, cleanLost int) {
	b.roundLost += lost
	b.roundCleanLost += cleanLost
}

// phase is the length of one probe-cycle phase.
func (b *bbrCC) phase() time.Duration { return max(b.baseRTT(), time.Millisecond) }

func (b *bbrCC) onAck(now time.Time, s ackSample) {
	switch m := s.rtt.min(); {
	case b.minRTT == 0 || m < b.minRTT:
		b.minRTT, b.minRTTAt = m, now
	case s.rtt.latest() <= b.minRTT+b.minRTT/8:
		b.minRTTAt = now // confirmed: no standing queue now
	case m > b.minRTT && now.Sub(b.minRTTAt) > minRTTLifetime:
		b.minRTT, b.minRTTAt = m, now // the path changed
	}
	b.noteAggregation(now, s.acked, s.roundStart)
	b.lastInflight = s.inflight
	b.roundAcked += s.acked
	b.roundLost += s.lost
	b.roundCleanAcked += s.cleanAcked
	b.roundCleanLost += s.cleanLost
	if l := s.rtt.latest(); b.roundMinRTT == 0 || l < b.roundMinRTT {
		b.roundMinRTT = l
	}
	// In PROBE_BW the estimate rises only from the samples of a probe
	// (its phase and the next, when they are acknowledged): capacity
	// another flow freed by backing off is not taken at once.
	canRise := b.mode != bbrProbeBW || b.cycleIdx <= 1
	if s.dispersion {
		// A hint, not a sample for the max filter: the latest dispersion
		// value (the longer the span, the less one ACK held up by the
		// receiver inflates it) stands in for the estimate until the
		// rounds sent at it measured the real delivery rate.
		b.hint = s.rate
		b.maxBW = max(b.filterMax(), b.hint)
	} else if s.rate > 0 && (!s.appLimited || s.rate > b.maxBW) && (canRise || s.rate <= b.maxBW) {
		if s.rate > b.bwRounds[b.round%bwWindowRounds] {
			b.bwRounds[b.round%bwWindowRounds] = s.rate
		}
		if s.rate > b.maxBW {
			b.maxBW = s.rate
		}
	}
	if s.dispersion && b.firstFlight && s.rate < measuredBelow*b.sentRate {
		b.measured = true
	}
	if s.dispersion || s.roundStart && b.round > 0 {
		b.firstFlight = false
	}
	if s.roundStart {
		b.endRound()
	}
	switch b.mode {
	case bbrDrain:
		if s.inflight <= b.bdp() {
			b.enterProbeBW(now)
		}
	case bbrProbeBW:
		if now.Sub(b.cycleStart) > b.phase() {
			b.cycleIdx = (b.cycleIdx + 1) % len(probeGains)
			b.cycleStart = now
		}
		if now.Sub(b.minRTTAt) > probeRTTInterval {
			b.mode, b.probeRTTPrev = bbrProbeRTT, bbrProbeBW
			b.probeRTTDone = now.Add(max(probeRTTTime, 2*b.baseRTT()))
		}
	case bbrProbeRTT:
		if !now.Before(b.probeRTTDone) {
			b.minRTTAt = now
			b.enterProbeBW(now)
		}
	}
}

// noteAggregation updates the ACK-aggregation estimate with acked bytes
// acknowledged at now (BBR's bbr_update_ack_aggregation). A receiver
// that is scheduled in slices (one on the same host, a loaded machine)
// or an offloading NIC acknowledges in bunches with silences between;
// a window of only a BDP or two then idles the sender in every
// silence, which on a path of tens of microseconds is most of the time.
func (b *bbrCC) noteAggregation(now time.Time, acked int, roundStart bool) {
	if acked <= 0 || b.maxBW == 0 {
		return
	}
	if roundStart {
		if b.aggRound++; b.aggRound >= aggRounds {
			b.aggRound, b.aggIdx = 0, 1-b.aggIdx
			b.aggMax[b.aggIdx] = 0
		}
	}
	expected := int(b.maxBW * now.Sub(b.aggEpoch).Seconds())
	if b.aggEpochAcked <= expected {
		// ACKs came no faster than the rate: a new epoch starts.
		b.aggEpoch, b.aggEpochAcked, expected = now, 0, 0
	}
	b.aggEpochAcked += acked
	extra := min(b.aggEpochAcked-expected, b.cwnd())
	b.aggMax[b.aggIdx] = max(b.aggMax[b.aggIdx], extra)
}

// aggregation is the window the ACK aggregation adds once startup is
// over (as BBR: in startup the window grows anyway), at most
// maxAggregation at the estimated rate.
func (b *bbrCC) aggregation() int {
	if b.mode == bbrStartup || b.mode == bbrProbeRTT {
		return 0
	}
	return min(max(b.aggMax[0], b.aggMax[1]), int(b.maxBW*maxAggregation.Seconds()))
}

func (b *bbrCC) enterProbeBW(now time.Time) {
	b.mode = bbrProbeBW
	b.cycleIdx, b.cycleStart = 2, now
}

// endRound closes a round trip: it updates the loss average, checks for a
// bottleneck queue, slides the bandwidth window and checks whether
// startup is over.
func (b *bbrCC) endRound() {
	queued := b.roundMinRTT > 0 && b.queueAt(b.roundMinRTT)
	if !queued {
		// A round whose every RTT sample shows a queue may have lost its
		// clean packets to somebody else's queue: not random loss.
		b.cleanAcked += b.roundCleanAcked
		b.cleanLost += b.roundCleanLost
	}
	b.roundCleanAcked, b.roundCleanLost = 0, 0
	if n := b.cleanAcked + b.cleanLost; n >= cleanBatch*b.mss {
		l := float64(b.cleanLost) / float64(n)
		if !b.lossKnown {
			b.lossAvg, b.lossKnown = l, true
		} else {
			b.lossAvg = (1-cleanWeight)*b.lossAvg + cleanWeight*l
		}
		b.cleanAcked, b.cleanLost = 0, 0
	}
	if queued {
		b.queuedRounds++
	} else {
		b.queuedRounds = 0
	}
	total := b.roundAcked + b.roundLost
	roundLoss := 0.0
	if total > 0 {
		roundLoss = float64(b.roundLost) / float64(total)
	}
	congested := b.congested(queued, total, roundLoss)
	if congested || b.mode == bbrProbeBW && b.queuedRounds >= persistentRounds {
		// A standing queue that overflows, or one that outlasts a drain
		// phase: the estimate is too high, or another flow needs room.
		b.backoff()
		b.queuedRounds = 0
	}
	b.roundAcked, b.roundLost, b.roundMinRTT = 0, 0, 0
	b.round++
	b.bwRounds[b.round%bwWindowRounds] = 0
	if b.round > hintRounds {
		b.hint = 0
	}
	b.maxBW = max(b.filterMax(), b.hint)
	if b.mode != bbrStartup {
		return
	}
	bw := b.bandwidth()
	switch {
	case congested:
		b.mode = bbrDrain
	case bw >= b.fullBW*fullBWGrowth:
		b.fullBW, b.fullBWCount = bw, 0
	default:
		if b.fullBWCount++; b.fullBWCount >= fullBWRounds {
			b.mode = bbrDrain
		}
	}
}

// congested reports whether a round of total bytes that lost roundLoss
// of them overflowed a queue rather than met random loss: its loss
// exceeds the random rate by queueLoss with a standing queue, or twice
// the random rate plus burstLoss without — in either case by one more
// standard deviation of the difference between the round's loss and
// the estimate (binomial noise over the round's packets and over the
// estimate's), so that sampling noise at 10 % random loss (±2 points
// in a round of 200 packets, ±1.4 in the estimate) does not pass for
// congestion and cut the rate again and again. Until clean samples
// measured the random rate it is taken to be unknownLoss for a queued
// round and unknownLossLater for the burst test.
func (b *bbrCC) congested(queued bool, total int, roundLoss float64) bool {
	if total == 0 {
		return false
	}
	pkts := float64(total) / float64(b.mss)
	noise := func(p float64) float64 {
		return math.Sqrt(p * (1 - p) * (1/pkts + 1/lossEstimatePackets))
	}
	pq, pb := b.lossAvg, b.lossAvg
	if !b.lossKnown {
		// A standing queue with loss is congestion (in startup one
		// deeper than the sender's own window builds); without a queue,
		// loss not yet known to be random must exceed what 10 % random
		// loss shows, or the rate collapses under repeated backoffs.
		pq, pb = unknownLoss, unknownLossLater
	}
	if queued && roundLoss > pq+queueLoss+noise(pq) {
		return true
	}
	return total >= 16*b.mss && roundLoss > 2*pb+burstLoss+noise(pb)
}

// queueAt reports whether an RTT sample shows a standing queue — in
// startup one deeper than the half BDP its own window may build
// (startupCwndGain), so that random loss in a round that only met the
// sender's own queue does not end startup.
func (b *bbrCC) queueAt(rtt time.Duration) bool {
	f := queueRTT
	if b.mode == bbrStartup {
		f = startupCwndGain
	}
	return rtt > time.Duration(float64(b.baseRTT())*f)+queueSlack
}

// filterMax is the largest delivery-rate sample of the last
// bwWindowRounds rounds.
func (b *bbrCC) filterMax() float64 {
	m := 0.0
	for _, v := range b.bwRounds {
		m = max(m, v)
	}
	return m
}

// backoff cuts the bandwidth estimate and restarts its window.
func (b *bbrCC) backoff() {
	b.backoffs++
	bw := b.bandwidth() * backoffFactor
	for i := range b.bwRounds {
		b.bwRounds[i] = 0
	}
	b.bwRounds[b.round%bwWindowRounds] = bw
	b.maxBW = bw
	if b.mode == bbrStartup {
		b.mode = bbrDrain
	}
}

func (b *bbrCC) bandwidth() float64 { return b.maxBW }

func (b *bbrCC) setRateCap(rate float64) { b.rateCap = rate }

func (b *bbrCC) setMSS(bytes int) { b.mss = bytes }

// lossComp is the factor that makes up for random loss.
func (b *bbrCC) lossComp() float64 {
	return 1 / (1 - min(b.lossAvg, maxLossComp))
}

func (b *bbrCC) bdp() int {
	if b.maxBW == 0 {
		return b.initialCwnd()
	}
	return int(b.maxBW * b.baseRTT().Seconds())
}

// firstFlightRate is the pacing rate of the first flight.
func (b *bbrCC) firstFlightRate() float64 {
	return firstFlightSpread * float64(b.initialCwnd()) / max(b.baseRTT(), time.Millisecond).Seconds()
}

func (b *bbrCC) gain() float64 {
	switch b.mode {
	case bbrStartup:
		if b.measured {
			return measuredGain
		}
		return startupGain
	case bbrDrain:
		return drainGain
	case bbrProbeRTT:
		return 1
	}
	return probeGains[b.cycleIdx]
}

func (b *bbrCC) cwnd() int {
	if b.maxBW == 0 {
		return b.initialCwnd()
	}
	if b.firstFlight {
		return max(b.initialCwnd(), int(startupCwndGain*float64(b.bdp())))
	}
	if b.mode == bbrProbeRTT {
		return max(b.bdp()/2, 4*b.mss)
	}
	g := cwndGain
	if b.mode == bbrStartup {
		g = startupCwndGain
	}
	w := int(g * float64(b.bdp()) * b.lossComp())
	if b.mode != bbrStartup {
		// Headroom for ACKs that arrive in bursts; in startup none, so
		// that a one-BDP queue does not overflow.
		w += max(4*b.mss, b.aggregation())
	}
	return max(w, 8*b.mss)
}

func (b *bbrCC) pacingRate() float64 {
	var r float64
	if b.maxBW == 0 || b.firstFlight {
		// The first flight leaves in 1/firstFlightSpread of the handshake's
		// round trip: faster than the bottleneck, which spaces it out.
		r = max(b.firstFlightRate(), startupGain*b.maxBW)
	} else {
		g := b.gain() * b.maxBW
		if b.mode == bbrProbeBW && b.cycleIdx == 0 {
			// Probe up by at least probeQuantum packets a round: a flow
			// with a small share probes harder than its gain alone would
			// let it, so flows sharing a bottleneck converge (an additive
			// increase against the multiplicative backoff).
			g = max(g, b.maxBW+float64(probeQuantum*b.mss)/b.phase().Seconds())
		}
		r = g * b.lossComp()
	}
	if b.rateCap > 0 && r > b.rateCap {
		r = b.rateCap
	}
	return r
}
