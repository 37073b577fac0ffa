package netimpair

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/zap"
)

// sink records what a direction sends, with the virtual time of sending.
type sink struct {
	mu  sync.Mutex
	now func() time.Duration
	at  []time.Duration
	b   [][]byte
}

func (s *sink) send(p *packet) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at = append(s.at, s.now())
	s.b = append(s.b, append([]byte(nil), p.b...))
	return nil
}

func (s *sink) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.at)
}

// startDirection runs a direction for im inside a synctest bubble.
func startDirection(t *testing.T, im Impairment) (*direction, *sink, *packetPool, chan struct{}) {
	epoch := time.Now()
	now := func() time.Duration { return time.Since(epoch) }
	sk := &sink{now: now}
	pool := new(packetPool)
	d := newDirection(newShaper(im.populated(), 1, 1), now, sk.send, pool, zap.NewNop())
	done := make(chan struct{})
	go d.run(done)
	return d, sk, pool, done
}

func TestDirectionBottleneckAndDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 8 Mbit/s: a 1000-byte packet takes 1 ms on the link.
		im := Impairment{Rate: 8_000_000, BucketBytes: 1000, QueueBytes: 1 << 20, Delay: 10 * time.Millisecond}
		d, sk, pool, done := startDirection(t, im)
		for i := range 50 {
			b := make([]byte, 1000)
			b[0] = byte(i)
			d.in <- pool.get(b, nil)
		}
		synctest.Wait()
		if st := d.c.snapshot(); st.PacketsIn != 50 || st.Pending != 50 || sk.len() != 0 {
			t.Fatalf("before the delay: %+v, sent %d", st, sk.len())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if sk.len() != 50 {
			t.Fatalf("sent %d of 50", sk.len())
		}
		for i, at := range sk.at {
			// Packet 0 rides on the full bucket; each later one waits
			// 1 ms on the link, then 10 ms of delay.
			want := im.Delay + time.Duration(i)*time.Millisecond
			if at != want || sk.b[i][0] != byte(i) {
				t.Errorf("packet %d (%d) sent at %v, want %v", i, sk.b[i][0], at, want)
			}
		}
		st := d.c.snapshot()
		if st.PacketsOut != 50 || st.BytesOut != 50000 || st.Pending != 0 {
			t.Errorf("stats %+v", st)
		}
		close(done)
	})
}

func TestDirectionDuplicateCorrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, sk, pool, done := startDirection(t, Impairment{Duplicate: 1, Corrupt: 1})
		orig := make([]byte, 100)
		d.in <- pool.get(orig, nil)
		synctest.Wait()
		if sk.len() != 2 {
			t.Fatalf("sent %d copies, want 2", sk.len())
		}
		for i, b := range sk.b {
			diff := 0
			for j := range b {
				for x := b[j] ^ orig[j]; x != 0; x &= x - 1 {
					diff++
				}
			}
			if diff != 1 {
				t.Errorf("copy %d differs in %d bits, want 1", i, diff)
			}
		}
		if st := d.c.snapshot(); st.Duplicated != 1 || st.Corrupted != 2 || st.PacketsOut != 2 {
			t.Errorf("stats %+v", st)
		}
		close(done)
	})
}

func TestDirectionReorder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, sk, pool, done := startDirection(t, Impairment{Reorder: 0.2, ReorderDelay: 5 * time.Millisecond})
		for i := range 200 {
			d.in <- pool.get([]byte{byte(i)}, nil)
			time.Sleep(time.Millisecond)
		}
		time.Sleep(10 * time.Millisecond)
		synctest.Wait()
		if sk.len() != 200 {
			t.Fatalf("sent %d", sk.len())
		}
		inversions := 0
		for i := 1; i < len(sk.b); i++ {
			if sk.b[i][0] < sk.b[i-1][0] {
				inversions++
			}
		}
		st := d.c.snapshot()
		if st.Reordered == 0 || inversions == 0 || uint64(inversions) > st.Reordered {
			t.Errorf("reordered %d, inversions %d", st.Reordered, inversions)
		}
		close(done)
	})
}

func TestDirectionCloseDropsPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		epoch := time.Now()
		now := func() time.Duration { return time.Since(epoch) }
		sk := &sink{now: now}
		pool := new(packetPool)
		d := newDirection(newShaper(Impairment{Delay: time.Hour}.populated(), 1, 1), now, sk.send, pool, zap.NewNop())
		done, exited := make(chan struct{}), make(chan struct{})
		go func() { d.run(done); close(exited) }()
		for range 10 {
			d.in <- pool.get([]byte{1}, nil)
		}
		synctest.Wait()
		if st := d.c.snapshot(); st.Pending != 10 {
			t.Fatalf("pending %d", st.Pending)
		}
		close(done)
		<-exited
		if st := d.c.snapshot(); st.Pending != 0 || sk.len() != 0 {
			t.Errorf("after close: %+v, sent %d", st, sk.len())
		}
	})
}

func TestReleaseHeapOrder(t *testing.T) {
	var h releaseHeap
	ats := []time.Duration{5, 3, 9, 3, 1, 7, 3, 0}
	for i, at := range ats {
		h.push(item{at: at, seq: uint64(i)})
	}
	prev := item{at: -1}
	for len(h) > 0 {
		it := h.pop()
		if it.at < prev.at || (it.at == prev.at && it.seq < prev.seq) {
			t.Fatalf("popped %+v after %+v", it, prev)
		}
		prev = it
	}
}
