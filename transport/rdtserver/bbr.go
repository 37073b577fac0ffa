package rdtserver

import "time"

// bbr modes.
const (
	bbrStartup = iota
	bbrDrain
	bbrProbeBW
)

// BBR-style parameters.
const (
	startupGain    = 2.77
	drainGain      = 1 / 2.77
	cwndGain       = 2.0
	bwWindowRounds = 10
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
	// startupLoss ends startup early: a round that lost more than this
	// while the bandwidth estimate stopped growing.
	startupLoss = 0.03
	// backoffFactor scales the bandwidth estimate down on a detected
	// bottleneck queue.
	backoffFactor = 0.85
)

var probeGains = [...]float64{1.25, 0.75, 1, 1, 1, 1, 1, 1}

// bbrCC estimates the bottleneck bandwidth from delivery-rate samples (max
// over ten rounds) and the minimum RTT, and paces at a gain of that
// estimate. Unlike loss-based control it does not halve on isolated
// random losses. Random loss is measured on "clean" packets — those sent
// in the second half of the 0.75-gain probe phase, below the bottleneck
// rate, when no queue of the sender's own can overflow — and compensates
// the pacing rate, so goodput rather than send rate matches the link.
// Loss well above that random rate, or loss with a standing queue (RTT
// inflation), is the signature of a real bottleneck and cuts the
// estimate.
type bbrCC struct {
	mss      int
	rateCap  float64 // bytes/s, 0: none
	mode     int
	bwRounds [bwWindowRounds]float64
	round    int
	maxBW    float64

	fullBW       float64
	fullBWCount  int
	cycleIdx     int
	cycleStart   time.Time
	initialCwnd  int
	minRTT       time.Duration
	lastInflight int

	// per-round loss and RTT tracking
	roundAcked, roundLost int
	roundMinRTT           time.Duration
	// clean-sample accumulation and the random-loss estimate
	cleanAcked, cleanLost int
	lossAvg               float64
	lossKnown             bool // lossAvg has had a batch of clean samples
	backoffs              int
}

var _ congestionController = (*bbrCC)(nil)

// newBBR returns a controller for packets of mss bytes, pacing at most
// rateCap bytes per second (0: no cap).
func newBBR(mss int, rateCap float64, now time.Time) *bbrCC {
	return &bbrCC{mss: mss, rateCap: rateCap, initialCwnd: 32 * mss, cycleStart: now, minRTT: initialRTT}
}

func (b *bbrCC) onSent(now time.Time, _ int) bool {
	return b.mode == bbrProbeBW && probeGains[b.cycleIdx] < 1 && now.Sub(b.cycleStart) >= b.phase()/2
}

func (b *bbrCC) onLossOnly(_ time.Time, lost, cleanLost int) {
	b.roundLost += lost
	b.cleanLost += cleanLost
}

// phase is the length of one probe-cycle phase.
func (b *bbrCC) phase() time.Duration { return max(b.minRTT, time.Millisecond) }

func (b *bbrCC) onAck(now time.Time, s ackSample) {
	b.minRTT = s.rtt.min()
	b.lastInflight = s.inflight
	b.roundAcked += s.acked
	b.roundLost += s.lost
	b.cleanAcked += s.cleanAcked
	b.cleanLost += s.cleanLost
	if l := s.rtt.latest(); b.roundMinRTT == 0 || l < b.roundMinRTT {
		b.roundMinRTT = l
	}
	if s.rate > 0 && (!s.appLimited || s.rate > b.maxBW) {
		if s.rate > b.bwRounds[b.round%bwWindowRounds] {
			b.bwRounds[b.round%bwWindowRounds] = s.rate
		}
		if s.rate > b.maxBW {
			b.maxBW = s.rate
		}
	}
	if s.roundStart {
		b.endRound()
	}
	switch b.mode {
	case bbrDrain:
		if s.inflight <= b.bdp() {
			b.mode = bbrProbeBW
			b.cycleIdx, b.cycleStart = 2, now
		}
	case bbrProbeBW:
		if now.Sub(b.cycleStart) > b.phase() {
			b.cycleIdx = (b.cycleIdx + 1) % len(probeGains)
			b.cycleStart = now
		}
	}
}

// endRound closes a round trip: it updates the loss average, checks for a
// bottleneck queue, slides the bandwidth window and checks whether
// startup is over.
func (b *bbrCC) endRound() {
	if n := b.cleanAcked + b.cleanLost; n >= cleanBatch*b.mss {
		l := float64(b.cleanLost) / float64(n)
		if !b.lossKnown {
			b.lossAvg, b.lossKnown = l, true
		} else {
			b.lossAvg = (1-cleanWeight)*b.lossAvg + cleanWeight*l
		}
		b.cleanAcked, b.cleanLost = 0, 0
	}
	total := b.roundAcked + b.roundLost
	roundLoss := 0.0
	if total > 0 {
		loss := float64(b.roundLost) / float64(total)
		roundLoss = loss
		queued := b.roundMinRTT > time.Duration(float64(b.minRTT)*queueRTT)+queueSlack
		if queued && loss > b.lossAvg+queueLoss || b.lossKnown && total >= 16*b.mss && loss > 2*b.lossAvg+burstLoss {
			// A standing queue that overflows: the estimate is too high.
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
	}
	b.roundAcked, b.roundLost, b.roundMinRTT = 0, 0, 0
	b.round++
	b.bwRounds[b.round%bwWindowRounds] = 0
	b.maxBW = 0
	for _, v := range b.bwRounds {
		b.maxBW = max(b.maxBW, v)
	}
	if b.mode == bbrStartup {
		bw := b.bandwidth()
		switch {
		case bw >= b.fullBW*fullBWGrowth:
			b.fullBW, b.fullBWCount = bw, 0
		case roundLoss > startupLoss:
			// The pipe stopped growing and packets started to go: the
			// queue overflows now, no need to wait two more rounds.
			b.mode = bbrDrain
		default:
			if b.fullBWCount++; b.fullBWCount >= fullBWRounds {
				b.mode = bbrDrain
			}
		}
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
		return b.initialCwnd
	}
	return int(b.maxBW * b.minRTT.Seconds())
}

func (b *bbrCC) gain() float64 {
	switch b.mode {
	case bbrStartup:
		return startupGain
	case bbrDrain:
		return drainGain
	}
	return probeGains[b.cycleIdx]
}

func (b *bbrCC) cwnd() int {
	if b.maxBW == 0 {
		return b.initialCwnd
	}
	g := cwndGain
	if b.mode == bbrStartup {
		g = startupGain
	}
	w := int(g*float64(b.bdp())*b.lossComp()) + 8*b.mss
	return max(w, 8*b.mss)
}

func (b *bbrCC) pacingRate() float64 {
	var r float64
	if b.maxBW == 0 {
		r = startupGain * float64(b.initialCwnd) / max(b.minRTT, time.Millisecond).Seconds()
	} else {
		r = b.gain() * b.maxBW * b.lossComp()
	}
	if b.rateCap > 0 && r > b.rateCap {
		r = b.rateCap
	}
	return r
}
