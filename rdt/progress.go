package rdt

import (
	"sync"
	"time"
)

// progress hands a snapshot to cfg.Progress, if set: through the pump
// when the download runs one, else at once.
func (f *fetch) progress(now time.Time) {
	if f.cfg.Progress == nil {
		return
	}
	got := int64(f.recv.have.Total())
	p := Progress{Received: got, Size: f.recv.size, Rate: f.rate.rate(), Elapsed: now.Sub(f.start)}
	if p.Size >= 0 && p.Rate > 0 {
		p.ETA = time.Duration(float64(p.Size-got) / p.Rate * float64(time.Second))
	}
	if f.pump != nil {
		f.pump.post(p)
		return
	}
	f.cfg.Progress(p)
}

// progressPump calls a progress callback from a goroutine of its own,
// so rendering (a terminal that blocks, a slow callback) never holds up
// the packet path. Only the latest snapshot is delivered: those posted
// while a call runs are replaced by newer ones. Calls never overlap.
type progressPump struct {
	fn   func(Progress)
	kick chan struct{}
	quit chan struct{}
	wg   sync.WaitGroup

	mu      sync.Mutex
	p       Progress
	pending bool
}

// startProgressPump starts the pump's goroutine; stop ends it.
func startProgressPump(fn func(Progress)) *progressPump {
	u := &progressPump{fn: fn, kick: make(chan struct{}, 1), quit: make(chan struct{})}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		for {
			select {
			case <-u.kick:
				u.deliver()
			case <-u.quit:
				return
			}
		}
	}()
	return u
}

// post stores p as the latest snapshot and wakes the pump; it never
// blocks.
func (u *progressPump) post(p Progress) {
	u.mu.Lock()
	u.p, u.pending = p, true
	u.mu.Unlock()
	select {
	case u.kick <- struct{}{}:
	default:
	}
}

func (u *progressPump) deliver() {
	u.mu.Lock()
	p, ok := u.p, u.pending
	u.pending = false
	u.mu.Unlock()
	if ok {
		u.fn(p)
	}
}

// stop ends the goroutine and then delivers the last snapshot if it is
// still pending, so the final report comes before Download returns.
func (u *progressPump) stop() {
	close(u.quit)
	u.wg.Wait()
	u.deliver()
}

// rateMeter measures a recent rate from (time, total) samples over about
// two seconds.
type rateMeter struct {
	t [8]time.Time
	v [8]uint64
	i int
}

func newRateMeter(now time.Time) *rateMeter {
	m := &rateMeter{}
	for k := range m.t {
		m.t[k] = now
	}
	return m
}

func (m *rateMeter) add(now time.Time, total uint64) {
	last := (m.i + len(m.t) - 1) % len(m.t)
	if now.Sub(m.t[last]) < 250*time.Millisecond {
		m.v[last] = total
		return
	}
	m.t[m.i], m.v[m.i] = now, total
	m.i = (m.i + 1) % len(m.t)
}

func (m *rateMeter) rate() float64 {
	last := (m.i + len(m.t) - 1) % len(m.t)
	first := m.i
	el := m.t[last].Sub(m.t[first]).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(m.v[last]-m.v[first]) / el
}
