package rdtserver

import "time"

// ackSample is what the sender learned from one ACK, handed to the
// congestion controller.
type ackSample struct {
	// acked and lost are the bytes newly acknowledged and newly declared
	// lost by this ACK.
	acked, lost int
	// cleanAcked and cleanLost count the part of acked and lost that was
	// sent while onSent said clean: below the bottleneck rate, where
	// losses cannot be the sender's own queue overflowing.
	cleanAcked, cleanLost int
	// rate is the delivery rate sample in bytes per second, 0 if none.
	rate float64
	// appLimited marks a rate sample taken while the sender had nothing
	// to send; it may only raise the estimate.
	appLimited bool
	// dispersion marks rate as measured by the spacing of the first
	// flight's ACKs, which the bottleneck set.
	dispersion bool
	// roundStart is set when this ACK starts a new round trip.
	roundStart bool
	// rtt is the RTT estimator after this ACK's sample.
	rtt rttEstimator
	// inflight is the bytes in flight after processing the ACK.
	inflight int
}

// congestionController decides how much may be in flight and how fast
// packets leave. It is driven with explicit times so it can be tested
// with a fake clock.
type congestionController interface {
	// onSent reports a packet of bytes sent at now with inflight bytes
	// in flight before it, and returns whether it is sent where no queue
	// of the sender's own can overflow (below the estimated bottleneck
	// rate after a queue had time to drain, or with no more than the
	// estimated BDP in flight), so that its loss measures random
	// (non-congestive) loss.
	onSent(now time.Time, bytes, inflight int) (clean bool)
	onAck(now time.Time, s ackSample)
	// onLossOnly reports losses detected by a timer, with no ACK.
	onLossOnly(now time.Time, lost, cleanLost int)
	// cwnd is the most bytes that may be in flight.
	cwnd() int
	// pacingRate is the send rate in bytes per second.
	pacingRate() float64
	// bandwidth is the current bottleneck estimate in bytes per second.
	bandwidth() float64
	// setRateCap caps the pacing rate in bytes per second (0: no cap).
	setRateCap(rate float64)
	// setMSS tells the controller the packet size grew (path MTU
	// probing): windows counted in packets are counted in these.
	setMSS(bytes int)
}
