package sysmon

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v3/cpu"
	"go.uber.org/zap"
)

// ErrClosed is returned by Sampler.Percent after Close.
var ErrClosed = errors.New("sysmon: sampler closed")

// A Sampler keeps the latest overall CPU usage percentage, refreshed by
// one background goroutine on a ticker. Each refresh is the busy share of
// the CPU time elapsed since the previous one, the same delta that
// gopsutil's cpu.Percent(0, false) computes, but with the previous sample
// held by the Sampler rather than in gopsutil's package-level state, so
// independent Samplers do not disturb each other.
//
// A Sampler is safe for concurrent use. Close stops the goroutine.
type Sampler struct {
	log   *zap.Logger
	times func(context.Context) (cpu.TimesStat, error)

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	once   sync.Once
	done   chan struct{} // closed when run returns

	// last and haveLast are owned by run (and by the constructor before
	// run starts).
	last     cpu.TimesStat
	haveLast bool

	mu     sync.Mutex
	pct    float64
	fresh  bool // pct is a delta between two samples, not since boot
	err    error
	closed bool
}

// NewSampler starts a Sampler that refreshes every interval (zero means
// DefaultSampleInterval). It takes a first sample before returning, so
// Percent has a value at once: until the first tick that value is the
// average usage since boot. A nil log means zap.NewNop().
func NewSampler(interval time.Duration, log *zap.Logger) (*Sampler, error) {
	cfg := Config{SampleInterval: interval, Logger: log}.populate()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return newSampler(cfg.SampleInterval, cfg.Logger, aggregateCPUTimes), nil
}

// newSampler starts a Sampler over the given times source. interval must
// be positive and log non-nil.
func newSampler(interval time.Duration, log *zap.Logger, times func(context.Context) (cpu.TimesStat, error)) *Sampler {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sampler{
		log:    log,
		times:  times,
		ctx:    ctx,
		cancel: cancel,
		done:   make(chan struct{}),
	}
	s.sample()
	go s.run(interval)
	return s
}

// Percent returns the latest CPU usage percentage, in [0, 100].
func (s *Sampler) Percent() (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	return s.pct, s.err
}

// recent is Percent and whether the value is a recent window (the delta
// between two samples) rather than the average since boot that a
// Sampler holds before its first tick.
func (s *Sampler) recent() (pct float64, fresh bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, false, ErrClosed
	}
	return s.pct, s.fresh, s.err
}

// Close stops the background goroutine and waits for it to exit.
// It is idempotent and always returns nil.
func (s *Sampler) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		s.cancel()
		<-s.done
	})
	return nil
}

// run refreshes the sample on every tick until Close.
func (s *Sampler) run(interval time.Duration) {
	defer close(s.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.sample()
		}
	}
}

// sample reads the CPU times and stores the usage since the previous read,
// or since boot if there is no previous read.
func (s *Sampler) sample() {
	now, err := s.times(s.ctx)
	if err != nil {
		err = fmt.Errorf("sampling cpu times: %w", err)
		s.mu.Lock()
		first := s.err == nil
		s.err = err
		s.mu.Unlock()
		if first {
			s.log.Warn("cpu sample failed", zap.Error(err))
		}
		return
	}
	var prev cpu.TimesStat // zero: usage since boot
	fresh := s.haveLast
	if fresh {
		prev = s.last
	}
	pct := busyPercent(prev, now)
	s.last, s.haveLast = now, true

	s.mu.Lock()
	recovered := s.err != nil
	s.pct, s.fresh, s.err = pct, fresh, nil
	s.mu.Unlock()
	if recovered {
		s.log.Info("cpu sampling recovered")
	}
}

// busyPercent returns the share of CPU time between t1 and t2 that was not
// idle, in [0, 100]. It mirrors gopsutil's calculateBusy.
func busyPercent(t1, t2 cpu.TimesStat) float64 {
	all1, busy1 := allBusy(t1)
	all2, busy2 := allBusy(t2)
	if busy2 <= busy1 {
		return 0
	}
	if all2 <= all1 {
		return 100
	}
	return math.Min(100, math.Max(0, (busy2-busy1)/(all2-all1)*100))
}

// allBusy returns the total and the busy CPU time in t. On Linux guest
// time is already counted in user and nice time.
func allBusy(t cpu.TimesStat) (all, busy float64) {
	all = t.User + t.System + t.Idle + t.Nice + t.Iowait + t.Irq +
		t.Softirq + t.Steal
	if runtime.GOOS != "linux" {
		all += t.Guest + t.GuestNice
	}
	return all, all - t.Idle - t.Iowait
}
