package rdt

import "time"

// progress hands a snapshot to cfg.Progress, if set.
func (f *fetch) progress(now time.Time) {
	if f.cfg.Progress == nil {
		return
	}
	got := int64(f.recv.have.Total())
	p := Progress{Received: got, Size: f.recv.size, Rate: f.rate.rate(), Elapsed: now.Sub(f.start)}
	if p.Size >= 0 && p.Rate > 0 {
		p.ETA = time.Duration(float64(p.Size-got) / p.Rate * float64(time.Second))
	}
	f.cfg.Progress(p)
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
