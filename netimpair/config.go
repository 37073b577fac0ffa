package netimpair

import (
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// Defaults used when the corresponding field is zero.
const (
	// DefaultListen is the address a relay listens on when Config.Listen is empty.
	DefaultListen = "127.0.0.1:0"
	// DefaultIdleTimeout is how long a client's upstream socket lives
	// without traffic in either direction.
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultSocketBuffer is the kernel receive and send buffer size the
	// relay asks for on each of its sockets.
	DefaultSocketBuffer = 4 << 20
	// DefaultReorderDelay is the extra hold-back of a reordered packet.
	DefaultReorderDelay = time.Millisecond
	// DefaultBucketBytes is the token-bucket depth of a bottleneck.
	DefaultBucketBytes = 3000
	// DefaultQueueDelay sizes a bottleneck's queue when neither
	// QueueBytes nor QueuePackets is set: the bytes the link drains in
	// this long, but at least MinDefaultQueueBytes.
	DefaultQueueDelay = 50 * time.Millisecond
	// MinDefaultQueueBytes is the smallest default queue.
	MinDefaultQueueBytes = 16 << 10
	// MaxDatagram is the largest UDP payload the relay carries.
	MaxDatagram = 65535
)

// Errors returned by New.
var (
	// ErrNoUpstream means Config.Upstream is empty.
	ErrNoUpstream = errors.New("netimpair: no upstream address")
	// ErrBadProbability means a probability is outside [0, 1].
	ErrBadProbability = errors.New("netimpair: probability outside [0, 1]")
	// ErrNegative means a duration, rate or size is negative.
	ErrNegative = errors.New("netimpair: negative value")
)

// Config configures a Relay. The zero value of every field except
// Upstream is usable.
type Config struct {
	// Listen is the UDP address clients send to. Default DefaultListen.
	Listen string
	// Upstream is the UDP address of the real server. Required.
	Upstream string
	// Forward impairs client→server packets. Default: none.
	Forward Impairment
	// Reverse impairs server→client packets. Default: none.
	Reverse Impairment
	// Seed seeds every random decision; the same seed and the same
	// packet sequence give the same decisions. Default 0 (a valid seed).
	Seed uint64
	// IdleTimeout closes a client's upstream socket after this long
	// without packets in either direction. Default DefaultIdleTimeout.
	IdleTimeout time.Duration
	// SocketBuffer is the kernel buffer size requested for each socket.
	// Default DefaultSocketBuffer; negative leaves the kernel default.
	SocketBuffer int
	// Logger receives session and error events. Default zap.NewNop().
	Logger *zap.Logger
}

// Impairment describes what happens to packets in one direction. The
// zero value forwards every packet unchanged and at once.
//
// A packet first passes the bottleneck (Rate, queue), then the link: it
// may be lost (Loss, GE), corrupted, duplicated, delayed (Delay, Jitter)
// and held back (Reorder). A packet lost on the link has still used the
// bottleneck, so at loss p the most a link delivers is Rate×(1−p).
type Impairment struct {
	// Loss is the Bernoulli loss probability. Default 0.
	Loss float64
	// GE adds Gilbert-Elliott burst loss. Default off.
	GE GilbertElliott
	// Duplicate is the probability a packet is delivered twice. Default 0.
	Duplicate float64
	// Corrupt is the probability one random bit of a packet is flipped.
	// Each copy of a duplicated packet is decided on its own. Default 0.
	Corrupt float64
	// Reorder is the probability a packet is held back by ReorderDelay
	// beyond its normal release time, so later packets overtake it.
	// Default 0.
	Reorder float64
	// ReorderDelay is the hold-back of a reordered packet. Default
	// DefaultReorderDelay.
	ReorderDelay time.Duration
	// Delay is the one-way propagation delay. Default 0.
	Delay time.Duration
	// Jitter varies Delay uniformly within ±Jitter (never below zero).
	// Jitter alone never reorders: a packet is not released before the
	// one in front of it. Default 0.
	Jitter time.Duration
	// Rate is the bottleneck rate in bits per second; packets wait in a
	// FIFO queue and leave at this rate. Default 0: no bottleneck.
	Rate int64
	// BucketBytes is the token-bucket depth: how many bytes may leave
	// back to back after the link was idle. Default DefaultBucketBytes.
	BucketBytes int
	// QueueBytes limits the bottleneck queue in bytes (drop-tail).
	// Default: if QueuePackets is also zero, Rate×DefaultQueueDelay but
	// at least MinDefaultQueueBytes; otherwise no byte limit.
	QueueBytes int
	// QueuePackets limits the bottleneck queue in packets (drop-tail).
	// Default 0: no packet limit.
	QueuePackets int
}

// GilbertElliott is a two-state burst-loss model. Before each packet the
// state moves good→bad with probability P or bad→good with probability
// R; the packet is then lost with LossGood or LossBad. The mean burst is
// 1/R packets long; the stationary loss rate is
// (R×LossGood + P×LossBad) / (P + R).
type GilbertElliott struct {
	// P is the good→bad transition probability. Zero disables the model.
	P float64
	// R is the bad→good transition probability.
	R float64
	// LossBad is the loss probability in the bad state. Zero means 1:
	// every packet in the bad state is lost (the Gilbert model).
	LossBad float64
	// LossGood is the loss probability in the good state. Default 0.
	LossGood float64
}

// Enabled reports whether the model can lose packets.
func (g GilbertElliott) Enabled() bool { return g.P > 0 }

// MeanLoss is the model's stationary loss rate.
func (g GilbertElliott) MeanLoss() float64 {
	if !g.Enabled() {
		return 0
	}
	g = g.populated()
	if g.P+g.R == 0 {
		return g.LossGood
	}
	return (g.R*g.LossGood + g.P*g.LossBad) / (g.P + g.R)
}

func (g GilbertElliott) populated() GilbertElliott {
	if g.LossBad == 0 {
		g.LossBad = 1
	}
	return g
}

func (im Impairment) validate() error {
	for _, p := range []struct {
		name string
		v    float64
	}{
		{"loss", im.Loss}, {"duplicate", im.Duplicate}, {"corrupt", im.Corrupt},
		{"reorder", im.Reorder}, {"ge.p", im.GE.P}, {"ge.r", im.GE.R},
		{"ge.lossbad", im.GE.LossBad}, {"ge.lossgood", im.GE.LossGood},
	} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("%s = %v: %w", p.name, p.v, ErrBadProbability)
		}
	}
	if im.ReorderDelay < 0 || im.Delay < 0 || im.Jitter < 0 || im.Rate < 0 ||
		im.BucketBytes < 0 || im.QueueBytes < 0 || im.QueuePackets < 0 {
		return ErrNegative
	}
	return nil
}

// populated returns im with defaults filled in.
func (im Impairment) populated() Impairment {
	if im.ReorderDelay == 0 {
		im.ReorderDelay = DefaultReorderDelay
	}
	if im.GE.Enabled() {
		im.GE = im.GE.populated()
	}
	if im.Rate > 0 {
		if im.BucketBytes == 0 {
			im.BucketBytes = DefaultBucketBytes
		}
		if im.QueueBytes == 0 && im.QueuePackets == 0 {
			im.QueueBytes = int(float64(im.Rate) / 8 * DefaultQueueDelay.Seconds())
			im.QueueBytes = max(im.QueueBytes, MinDefaultQueueBytes)
		}
	}
	return im
}

func (c Config) populated() (Config, error) {
	if c.Upstream == "" {
		return c, ErrNoUpstream
	}
	if err := c.Forward.validate(); err != nil {
		return c, fmt.Errorf("forward: %w", err)
	}
	if err := c.Reverse.validate(); err != nil {
		return c, fmt.Errorf("reverse: %w", err)
	}
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.SocketBuffer == 0 {
		c.SocketBuffer = DefaultSocketBuffer
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	c.Forward = c.Forward.populated()
	c.Reverse = c.Reverse.populated()
	return c, nil
}
