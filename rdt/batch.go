package rdt

import (
	"net"
	"sync/atomic"

	"go.uber.org/zap"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// Batched I/O limits.
const (
	// MaxBatch is the most messages one batched system call moves: a
	// message is one datagram, or with GSO/GRO a run of datagrams of one
	// size handed to the kernel as one buffer.
	MaxBatch = 32
	// maxGSOSegments is the most datagrams in one GSO buffer (the
	// kernel's UDP_MAX_SEGMENTS is 64 on older kernels).
	maxGSOSegments = 64
	// maxGSOBytes bounds one GSO buffer: the UDP length field.
	maxGSOBytes = 65000
	// groBufSize is the receive buffer for one GRO super-datagram.
	groBufSize = 64 << 10
	// oobSize holds the control message a receive may carry (UDP_GRO).
	oobSize = 64
)

// SocketOptions turns off the fast paths of a Conn, one by one, for
// tests and for kernels that misbehave. The zero value uses every fast
// path the platform and the kernel offer.
type SocketOptions struct {
	// NoBatch moves one datagram per system call (no sendmmsg or
	// recvmmsg); it implies NoGSO and NoGRO.
	NoBatch bool
	// NoGSO sends each datagram on its own, never as one UDP_SEGMENT
	// buffer.
	NoGSO bool
	// NoGRO asks the kernel for each datagram on its own, never a
	// coalesced UDP_GRO buffer.
	NoGRO bool
}

// batchConn is the part of golang.org/x/net's ipv4 and ipv6 PacketConn
// that Conn uses: sendmmsg and recvmmsg on Linux, one message per call
// elsewhere.
type batchConn interface {
	ReadBatch(ms []ipv4.Message, flags int) (int, error)
	WriteBatch(ms []ipv4.Message, flags int) (int, error)
}

// Conn is a UDP socket with batched I/O: it sends many datagrams for one
// destination in one system call (sendmmsg, and UDP GSO where the kernel
// offers it: runs of equal-sized datagrams in one buffer), and receives
// many at once (recvmmsg, and UDP GRO where offered). Each fast path is
// probed once when the Conn is made and turned off for good the first
// time the kernel refuses it; a PacketConn that is not a *net.UDPConn
// moves one datagram per call. Sends and receives may run concurrently;
// each caller brings its own SendBatch or RecvBatch.
type Conn struct {
	pc    net.PacketConn
	bc    batchConn // nil: one datagram per call
	v6    bool      // an IPv6 socket: IPv4 destinations go one by one
	gso   atomic.Bool
	gro   bool
	log   *zap.Logger
	batch atomic.Bool // false once a batched send failed as unsupported
}

// NewConn wraps pc. It enables GRO on pc when the kernel offers it, so
// every receive on pc must go through the Conn from then on.
func NewConn(pc net.PacketConn, opts SocketOptions, log *zap.Logger) *Conn {
	if log == nil {
		log = zap.NewNop()
	}
	c := &Conn{pc: pc, log: log}
	u, ok := pc.(*net.UDPConn)
	if !ok || opts.NoBatch {
		return c
	}
	if la, ok := u.LocalAddr().(*net.UDPAddr); ok && la.IP.To4() == nil {
		c.v6 = true
		c.bc = ipv6Batch{ipv6.NewPacketConn(u)}
	} else {
		c.bc = ipv4.NewPacketConn(u)
	}
	c.batch.Store(true)
	if !opts.NoGSO && gsoSupported(u) {
		c.gso.Store(true)
	}
	if !opts.NoGRO && enableGRO(u) {
		c.gro = true
	}
	return c
}

// ipv6Batch adapts an ipv6.PacketConn to batchConn (the Message types
// are the same).
type ipv6Batch struct{ pc *ipv6.PacketConn }

func (b ipv6Batch) ReadBatch(ms []ipv4.Message, flags int) (int, error) {
	return b.pc.ReadBatch(ms, flags)
}
func (b ipv6Batch) WriteBatch(ms []ipv4.Message, flags int) (int, error) {
	return b.pc.WriteBatch(ms, flags)
}

// SetDontFragment sets the don't-fragment bit on the socket's
// datagrams, so larger ones are never fragmented (path MTU probing
// relies on it), and reports whether the platform allowed it.
func (c *Conn) SetDontFragment() bool {
	u, ok := c.pc.(*net.UDPConn)
	return ok && setDontFragment(u)
}

// PacketConn returns the wrapped socket.
func (c *Conn) PacketConn() net.PacketConn { return c.pc }

// GSO reports whether sends use UDP GSO.
func (c *Conn) GSO() bool { return c.gso.Load() }

// GRO reports whether receives may return coalesced datagrams.
func (c *Conn) GRO() bool { return c.gro }

// Batched reports whether sends and receives use sendmmsg/recvmmsg.
func (c *Conn) Batched() bool { return c.bc != nil && c.batch.Load() }

// SendBatch collects datagrams for one destination back to back in one
// buffer, so Conn.Send can hand runs of them to the kernel at once. It
// is not safe for concurrent use; each sender owns one, and reuses it
// without allocating.
type SendBatch struct {
	buf  []byte
	ends []int // end of each datagram in buf
	msgs []ipv4.Message
	bufs [][]byte // backing of msgs[i].Buffers
	oobs []byte   // backing of msgs[i].OOB
	// first maps a message index to the first datagram it carries (pack
	// fills it; first[n] is the index after the last).
	first [MaxBatch + 1]int
}

// NewSendBatch returns a batch for up to n datagrams of at most size
// bytes each.
func NewSendBatch(n, size int) *SendBatch {
	return &SendBatch{buf: make([]byte, 0, n*size), ends: make([]int, 0, n),
		msgs: make([]ipv4.Message, n), bufs: make([][]byte, n), oobs: make([]byte, n*oobSize)}
}

// Tail returns the free space after the last datagram, to append the
// next one to; Add then records it.
func (b *SendBatch) Tail() []byte { return b.buf[len(b.buf):] }

// Add records the datagram d, appended to Tail() (without a copy) or
// anywhere else (copied).
func (b *SendBatch) Add(d []byte) {
	n := len(b.buf)
	if len(d) > 0 && cap(b.buf)-n >= len(d) && &b.buf[:n+1][n] == &d[0] {
		b.buf = b.buf[:n+len(d)]
	} else {
		b.buf = append(b.buf, d...)
	}
	b.ends = append(b.ends, len(b.buf))
}

// Len returns how many datagrams the batch holds.
func (b *SendBatch) Len() int { return len(b.ends) }

// Datagram returns the i-th datagram.
func (b *SendBatch) Datagram(i int) []byte {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.buf[start:b.ends[i]]
}

// Reset empties the batch.
func (b *SendBatch) Reset() {
	b.buf, b.ends = b.buf[:0], b.ends[:0]
}

// Send sends the batch's datagrams to addr, in order, and empties it.
// It returns the first error; datagrams not sent then are lost, as UDP
// datagrams may be. A GSO or batched send the kernel refuses as
// unsupported turns that path off and sends the rest without it.
func (c *Conn) Send(b *SendBatch, addr net.Addr) error {
	defer b.Reset()
	ua, _ := addr.(*net.UDPAddr)
	if c.bc == nil || !c.batch.Load() || ua == nil || c.v6 && ua.IP.To4() != nil {
		return c.sendEach(b, 0, addr)
	}
	i := 0
	for i < b.Len() {
		gso := c.gso.Load()
		n := b.pack(i, ua, gso)
		sent, err := c.bc.WriteBatch(b.msgs[:n], 0)
		first := &b.first
		if err == nil {
			if sent == 0 {
				return c.sendEach(b, i, addr)
			}
			i = first[sent]
			continue
		}
		i = first[sent]
		switch {
		case gso && gsoRefused(err):
			c.gso.Store(false)
			c.log.Info("udp gso refused by the kernel; sending without it", zap.Error(err))
		case batchRefused(err):
			c.batch.Store(false)
			c.log.Info("batched udp send refused by the kernel; sending one datagram per call", zap.Error(err))
			return c.sendEach(b, i, addr)
		default:
			return err
		}
	}
	return nil
}

// sendEach sends datagrams from..Len()-1 one per call.
func (c *Conn) sendEach(b *SendBatch, from int, addr net.Addr) error {
	for i := from; i < b.Len(); i++ {
		if _, err := c.pc.WriteTo(b.Datagram(i), addr); err != nil {
			return err
		}
	}
	return nil
}

// pack fills b.msgs from datagram i on: one message per datagram, or
// with gso one per run of equal-sized datagrams (the last of a run may
// be shorter). It returns the message count and records, per message,
// the index of its first datagram in b.first.
func (b *SendBatch) pack(i int, addr *net.UDPAddr, gso bool) int {
	first := &b.first
	n := 0
	for i < b.Len() && n < MaxBatch && n < len(b.msgs) {
		first[n] = i
		start := 0
		if i > 0 {
			start = b.ends[i-1]
		}
		seg := b.ends[i] - start
		j := i + 1
		if gso {
			for j < b.Len() && j-i < maxGSOSegments {
				l := b.ends[j] - b.ends[j-1]
				if l > seg || b.ends[j]-start > maxGSOBytes {
					break
				}
				j++
				if l < seg {
					break // a shorter datagram ends the run
				}
			}
		}
		m := &b.msgs[n]
		b.bufs[n] = b.buf[start:b.ends[j-1]]
		m.Buffers = b.bufs[n : n+1 : n+1]
		m.Addr = addr
		m.OOB = b.oobs[n*oobSize : n*oobSize]
		if j-i > 1 {
			m.OOB = appendSegmentSize(m.OOB, seg)
		}
		n++
		i = j
	}
	first[n] = i
	return n
}

// RecvBatch is a set of receive buffers and what one Conn.Recv put in
// them. It is not safe for concurrent use.
type RecvBatch struct {
	msgs []ipv4.Message
	bufs [][]byte
	oobs []byte
	bb   [][]byte // backing of msgs[i].Buffers
	n    int
}

// NewRecvBatch returns a batch of n buffers for c: big enough for a GRO
// super-datagram when c uses GRO, else for a datagram of size bytes.
func (c *Conn) NewRecvBatch(n, size int) *RecvBatch {
	if !c.Batched() {
		n = 1
	}
	if c.gro {
		size = max(size, groBufSize)
	}
	r := &RecvBatch{msgs: make([]ipv4.Message, n), bufs: make([][]byte, n), oobs: make([]byte, n*oobSize), bb: make([][]byte, n)}
	for i := range r.bufs {
		r.bufs[i] = make([]byte, size)
	}
	return r
}

// Recv reads at least one message into r, blocking until one arrives
// or the socket fails; it returns how many messages r now holds.
func (c *Conn) Recv(r *RecvBatch) (int, error) {
	r.n = 0
	if c.bc == nil || !c.batch.Load() {
		n, from, err := c.pc.ReadFrom(r.bufs[0])
		if err != nil {
			return 0, err
		}
		m := &r.msgs[0]
		m.N, m.NN, m.Addr = n, 0, from
		r.n = 1
		return 1, nil
	}
	for i := range r.msgs {
		r.bb[i] = r.bufs[i]
		r.msgs[i].Buffers = r.bb[i : i+1 : i+1]
		r.msgs[i].OOB = r.oobs[i*oobSize : (i+1)*oobSize]
	}
	n, err := c.bc.ReadBatch(r.msgs, 0)
	if err != nil {
		return 0, err
	}
	r.n = n
	return n, nil
}

// Len returns how many messages the last Recv returned.
func (r *RecvBatch) Len() int { return r.n }

// Message returns the i-th message received: its bytes, its source, and
// its GRO segment size (0: the bytes are one datagram). Datagrams
// truncated by a buffer too small come back cut; their checksum fails.
func (r *RecvBatch) Message(i int) (b []byte, from net.Addr, seg int) {
	m := &r.msgs[i]
	b = r.bufs[i][:m.N]
	if m.NN > 0 {
		seg = groSegmentSize(m.OOB[:m.NN])
	}
	return b, m.Addr, seg
}

// NextSegment splits the first datagram d off b, a message whose GRO
// segment size is seg (0: one datagram): loop while len(b) > 0.
func NextSegment(b []byte, seg int) (d, rest []byte) {
	if seg <= 0 || seg >= len(b) {
		return b, nil
	}
	return b[:seg], b[seg:]
}
