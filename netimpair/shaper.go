package netimpair

import (
	"math/rand/v2"
	"time"
)

// cause says why a packet was not delivered.
type cause uint8

const (
	keep       cause = iota // delivered
	queueDrop               // bottleneck queue full
	randomLoss              // Bernoulli loss
	burstLoss               // Gilbert-Elliott loss
)

// flip is one corrupted bit: byte index and bit mask.
type flip struct {
	on   bool
	pos  int
	mask byte
}

// verdict is the shaper's decision about one packet.
type verdict struct {
	drop      cause
	release   time.Duration // when the packet leaves the relay
	copies    int           // 1, or 2 when duplicated
	corrupt   [2]flip       // per copy
	reordered bool
}

// departure is one packet in the bottleneck queue: its size and when it
// leaves the queue.
type departure struct {
	at   time.Duration
	size int
}

// shaper is the pure decision logic of one direction: given the arrival
// time and size of a packet it decides drop, corruption, duplication and
// release time. It keeps the bottleneck's token bucket and queue as
// virtual state, so the queueing delay it computes is the delay the
// scheduler then really applies. Times are durations since an epoch the
// caller chooses; calls must come with non-decreasing now.
type shaper struct {
	im  Impairment
	rng *rand.Rand

	geBad bool

	bytesPerNs  float64
	tokens      float64 // bytes available at tokensAt
	tokensAt    time.Duration
	lastDepart  time.Duration
	queue       []departure // FIFO, queue[qHead:] are still queued
	qHead       int
	queuedBytes int

	lastRelease time.Duration
}

// newShaper returns a shaper for im (already populated) drawing from a
// PCG generator seeded with seed and stream.
func newShaper(im Impairment, seed, stream uint64) *shaper {
	s := &shaper{im: im, rng: rand.New(rand.NewPCG(seed, stream))}
	if im.Rate > 0 {
		s.bytesPerNs = float64(im.Rate) / 8 / 1e9
		s.tokens = float64(im.BucketBytes)
	}
	return s
}

// decide returns the verdict for a packet of size bytes arriving at now.
// Random draws happen in a fixed order for every packet, whatever the
// queue does, so the loss pattern depends only on the seed and the
// packet index.
func (s *shaper) decide(now time.Duration, size int) verdict {
	v := verdict{copies: 1}
	im := &s.im

	// Draw every random decision first.
	lost := cause(keep)
	if im.Loss > 0 && s.rng.Float64() < im.Loss {
		lost = randomLoss
	}
	if im.GE.Enabled() {
		if s.geBad {
			if s.rng.Float64() < im.GE.R {
				s.geBad = false
			}
		} else if s.rng.Float64() < im.GE.P {
			s.geBad = true
		}
		p := im.GE.LossGood
		if s.geBad {
			p = im.GE.LossBad
		}
		if s.rng.Float64() < p && lost == keep {
			lost = burstLoss
		}
	}
	v.corrupt[0] = s.drawFlip(size)
	if im.Duplicate > 0 && s.rng.Float64() < im.Duplicate {
		v.copies = 2
		v.corrupt[1] = s.drawFlip(size)
	}
	var jitter time.Duration
	if im.Jitter > 0 {
		jitter = time.Duration(s.rng.Int64N(int64(2*im.Jitter)+1)) - im.Jitter
	}
	v.reordered = im.Reorder > 0 && s.rng.Float64() < im.Reorder

	// The bottleneck.
	depart, ok := s.enqueue(now, size)
	if !ok {
		return verdict{drop: queueDrop}
	}
	// The link.
	if lost != keep {
		return verdict{drop: lost}
	}
	release := max(depart+im.Delay+jitter, depart, s.lastRelease)
	s.lastRelease = release
	if v.reordered {
		release += im.ReorderDelay
	}
	v.release = release
	return v
}

func (s *shaper) drawFlip(size int) flip {
	if s.im.Corrupt <= 0 || s.rng.Float64() >= s.im.Corrupt || size == 0 {
		return flip{}
	}
	return flip{on: true, pos: s.rng.IntN(size), mask: 1 << s.rng.IntN(8)}
}

// enqueue puts a packet into the bottleneck queue and returns when it
// leaves, or false when the queue is full (drop-tail). Without a rate
// the packet leaves at once.
func (s *shaper) enqueue(now time.Duration, size int) (time.Duration, bool) {
	if s.im.Rate <= 0 {
		return now, true
	}
	// Forget packets that have left by now.
	for s.qHead < len(s.queue) && s.queue[s.qHead].at <= now {
		s.queuedBytes -= s.queue[s.qHead].size
		s.qHead++
	}
	if s.qHead == len(s.queue) {
		s.queue, s.qHead = s.queue[:0], 0
	} else if s.qHead > 1024 && s.qHead > len(s.queue)/2 {
		n := copy(s.queue, s.queue[s.qHead:])
		s.queue, s.qHead = s.queue[:n], 0
	}
	queued := len(s.queue) - s.qHead
	if queued > 0 && ((s.im.QueueBytes > 0 && s.queuedBytes+size > s.im.QueueBytes) ||
		(s.im.QueuePackets > 0 && queued+1 > s.im.QueuePackets)) {
		return 0, false
	}
	// Token bucket: the packet may start once the one before it left,
	// and leaves when the bucket holds its size.
	start := max(now, s.lastDepart)
	s.tokens = min(float64(s.im.BucketBytes), s.tokens+float64(start-s.tokensAt)*s.bytesPerNs)
	depart := start
	if need := float64(size) - s.tokens; need > 0 {
		depart += time.Duration(need/s.bytesPerNs + 0.5)
		s.tokens = 0
	} else {
		s.tokens -= float64(size)
	}
	s.tokensAt, s.lastDepart = depart, depart
	s.queue = append(s.queue, departure{at: depart, size: size})
	s.queuedBytes += size
	return depart, true
}

// queueLen returns the packets and bytes in the bottleneck queue at the
// time of the last call to decide.
func (s *shaper) queueLen() (packets, bytes int) {
	return len(s.queue) - s.qHead, s.queuedBytes
}
