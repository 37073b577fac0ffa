package netimpair

import (
	"sync"
	"time"

	"go.uber.org/zap"
)

// pooledSize is the buffer size of pooled packets; larger datagrams get
// a buffer of their own.
const pooledSize = 2048

// inQueue is the capacity of a direction's input channel.
const inQueue = 4096

// packet is one datagram in flight through the relay.
type packet struct {
	b   []byte // the datagram
	buf []byte // pooled backing array, or nil
	dst *session
}

// packetPool recycles packets and their buffers.
type packetPool struct{ p sync.Pool }

func (pp *packetPool) get(data []byte, dst *session) *packet {
	p, _ := pp.p.Get().(*packet)
	if p == nil {
		p = &packet{buf: make([]byte, pooledSize)}
	}
	if len(data) <= len(p.buf) {
		p.b = p.buf[:len(data)]
	} else {
		p.b = make([]byte, len(data))
	}
	copy(p.b, data)
	p.dst = dst
	return p
}

func (pp *packetPool) put(p *packet) {
	p.b, p.dst = nil, nil
	pp.p.Put(p)
}

// item is a packet waiting in the release heap.
type item struct {
	at  time.Duration
	seq uint64
	p   *packet
}

// releaseHeap is a min-heap of items by (at, seq).
type releaseHeap []item

func (h releaseHeap) less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].seq < h[j].seq)
}

func (h *releaseHeap) push(it item) {
	*h = append(*h, it)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *releaseHeap) pop() item {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = item{}
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// direction carries packets one way. Its run goroutine owns the shaper
// and the release heap: it takes packets from in, asks the shaper for a
// verdict, and sends each packet when its release time comes.
type direction struct {
	sh    *shaper
	in    chan *packet
	now   func() time.Duration
	send  func(*packet) error
	pool  *packetPool
	c     *counters
	log   *zap.Logger
	heap  releaseHeap
	seq   uint64
	timer *time.Timer
}

func newDirection(sh *shaper, now func() time.Duration, send func(*packet) error, pool *packetPool, log *zap.Logger) *direction {
	return &direction{
		sh:   sh,
		in:   make(chan *packet, inQueue),
		now:  now,
		send: send,
		pool: pool,
		c:    new(counters),
		log:  log,
	}
}

// run is the direction's owner loop; it returns when done is closed,
// dropping packets not yet released.
func (d *direction) run(done <-chan struct{}) {
	d.timer = time.NewTimer(time.Hour)
	d.timer.Stop()
	armed, armedAt := false, time.Duration(0)
	for {
		select {
		case p := <-d.in:
			d.accept(p)
		drain:
			for range 256 {
				select {
				case p := <-d.in:
					d.accept(p)
				default:
					break drain
				}
			}
		case <-d.timer.C:
			armed = false
		case <-done:
			d.timer.Stop()
			for len(d.heap) > 0 {
				d.pool.put(d.heap.pop().p)
			}
			d.c.pending.Store(0)
			return
		}
		now := d.now()
		d.releaseDue(now)
		if len(d.heap) == 0 {
			if armed {
				d.timer.Stop()
				armed = false
			}
			continue
		}
		if at := d.heap[0].at; !armed || at != armedAt {
			d.timer.Reset(at - now)
			armed, armedAt = true, at
		}
	}
}

// accept applies the shaper's verdict to p.
func (d *direction) accept(p *packet) {
	c := d.c
	// PacketsIn is counted last, so a reader who sees it also sees the
	// packet's other counters.
	defer func(n int) {
		c.bytesIn.Add(uint64(n))
		c.packetsIn.Add(1)
	}(len(p.b))
	v := d.sh.decide(d.now(), len(p.b))
	switch v.drop {
	case queueDrop:
		c.queueDropped.Add(1)
	case randomLoss:
		c.lost.Add(1)
	case burstLoss:
		c.burstLost.Add(1)
	}
	if v.drop != keep {
		d.pool.put(p)
		return
	}
	if v.reordered {
		c.reordered.Add(1)
	}
	var dup *packet
	if v.copies == 2 {
		c.duplicated.Add(1)
		dup = d.pool.get(p.b, p.dst)
	}
	for i, q := range []*packet{p, dup} {
		if q == nil {
			continue
		}
		if f := v.corrupt[i]; f.on {
			q.b[f.pos] ^= f.mask
			c.corrupted.Add(1)
		}
		d.seq++
		d.heap.push(item{at: v.release, seq: d.seq, p: q})
	}
	c.pending.Store(uint64(len(d.heap)))
}

// releaseDue sends every packet whose release time is not after now.
func (d *direction) releaseDue(now time.Duration) {
	for len(d.heap) > 0 && d.heap[0].at <= now {
		p := d.heap.pop().p
		if err := d.send(p); err != nil {
			d.c.sendError.Add(1)
			if ce := d.log.Check(zap.DebugLevel, "send failed"); ce != nil {
				ce.Write(zap.Error(err))
			}
		} else {
			d.c.packetsOut.Add(1)
			d.c.bytesOut.Add(uint64(len(p.b)))
		}
		d.pool.put(p)
	}
	d.c.pending.Store(uint64(len(d.heap)))
}
