package rdtserver

import "time"

// RTT estimation constants. The floor suits LAN round trips: RFC 6298's
// one-second minimum RTO would stall a transfer for a second per tail
// loss on a link with a 1 ms RTT.
const (
	initialRTT     = 100 * time.Millisecond
	minPTO         = 5 * time.Millisecond
	maxPTO         = 2 * time.Second
	timerGranule   = time.Millisecond
	maxAckDelay    = 5 * time.Millisecond
	minRTTLifetime = 10 * time.Second
)

// rttEstimator estimates the round-trip time from samples. It is the
// small interface the sender uses, so tests can substitute their own.
type rttEstimator interface {
	// update records a sample taken at now; ackDelay is how long the peer
	// held the acknowledgement.
	update(sample, ackDelay time.Duration, now time.Time)
	smoothed() time.Duration
	latest() time.Duration
	min() time.Duration
	// pto returns the probe timeout before backoff.
	pto() time.Duration
}

// rttStats implements RFC 6298 smoothing (SRTT, RTTVAR) with the RFC 9002
// ack-delay adjustment and a windowed minimum.
type rttStats struct {
	hasSample    bool
	seeded       bool // the sample is the handshake's, replaced by the first real one
	latestRTT    time.Duration
	srtt, rttvar time.Duration
	minRTT       time.Duration
	minRTTAt     time.Time
}

var _ rttEstimator = (*rttStats)(nil)

// seed sets a first estimate from the handshake, which may include a
// retransmitted request; the first real sample replaces it.
func (r *rttStats) seed(sample time.Duration, now time.Time) {
	if r.hasSample {
		return
	}
	r.update(sample, 0, now)
	r.seeded = true
}

func (r *rttStats) update(sample, ackDelay time.Duration, now time.Time) {
	if sample <= 0 {
		sample = time.Microsecond
	}
	if r.seeded {
		r.seeded, r.hasSample = false, false
	}
	r.latestRTT = sample
	if !r.hasSample || sample <= r.minRTT || now.Sub(r.minRTTAt) > minRTTLifetime {
		r.minRTT, r.minRTTAt = sample, now
	}
	adjusted := sample
	if ackDelay > maxAckDelay {
		ackDelay = maxAckDelay
	}
	if sample-ackDelay >= r.minRTT {
		adjusted = sample - ackDelay
	}
	if !r.hasSample {
		r.hasSample = true
		r.srtt, r.rttvar = adjusted, adjusted/2
		return
	}
	d := r.srtt - adjusted
	if d < 0 {
		d = -d
	}
	r.rttvar = (3*r.rttvar + d) / 4
	r.srtt = (7*r.srtt + adjusted) / 8
}

func (r *rttStats) smoothed() time.Duration {
	if !r.hasSample {
		return initialRTT
	}
	return r.srtt
}

func (r *rttStats) latest() time.Duration {
	if !r.hasSample {
		return initialRTT
	}
	return r.latestRTT
}

func (r *rttStats) min() time.Duration {
	if !r.hasSample {
		return initialRTT
	}
	return r.minRTT
}

func (r *rttStats) pto() time.Duration {
	if !r.hasSample {
		return 2 * initialRTT
	}
	p := r.srtt + max(4*r.rttvar, timerGranule) + maxAckDelay
	return min(max(p, minPTO), maxPTO)
}
