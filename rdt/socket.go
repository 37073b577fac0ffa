package rdt

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"go.uber.org/zap"
)

// SocketBuffer is the kernel buffer size asked for on RDT sockets, so a
// burst of a few milliseconds at hundreds of Mbit/s is not dropped by the
// host before the reader gets to it.
const SocketBuffer = 4 << 20

// SetSocketBuffers asks for SocketBuffer bytes of kernel buffers on a UDP
// socket, for both directions; the kernel may grant less, which only
// costs throughput. Sockets without the setters are left alone.
func SetSocketBuffers(pc net.PacketConn) {
	if u, ok := pc.(interface {
		SetReadBuffer(int) error
		SetWriteBuffer(int) error
	}); ok {
		_ = u.SetReadBuffer(SocketBuffer)
		_ = u.SetWriteBuffer(SocketBuffer)
	}
}

// socket is a client's UDP socket, talking to one server address.
type socket struct {
	pc    net.PacketConn
	conn  *Conn // pc with batched receives
	raddr *net.UDPAddr
	// owned: Download opened pc, so closing it stops the reader;
	// otherwise a past read deadline does, and pc is left open.
	owned bool
	buf   []byte
	log   *zap.Logger
}

// newSocket wraps pc. GRO is asked for only on a socket Download opened:
// a caller's socket is left as it was.
func newSocket(pc net.PacketConn, raddr *net.UDPAddr, owned bool, opts SocketOptions, log *zap.Logger) *socket {
	if !owned {
		opts.NoGRO = true
	}
	return &socket{pc: pc, conn: NewConn(pc, opts, log), raddr: raddr, owned: owned, buf: make([]byte, 0, MaxPacketSize), log: log}
}

// send encodes and sends p. Send errors on UDP are transient and only
// logged, except a closed socket.
func (s *socket) send(p *Packet) error {
	b, err := p.Append(s.buf[:0])
	if err != nil {
		return fmt.Errorf("rdt: encoding %s: %w", p.Type, err)
	}
	if _, err := s.pc.WriteTo(b, s.raddr); err != nil {
		if errors.Is(err, net.ErrClosed) {
			return err
		}
		s.log.Debug("udp write failed", zap.Error(err))
	}
	return nil
}

// Reader sizing: rxBatches batches of rxMessages receive buffers each
// circulate between the reader and the owner loop, so receiving
// allocates nothing per datagram.
const (
	rxBatches  = 4
	rxMessages = 16
	// rxBufSize holds any datagram (without GRO).
	rxBufSize = MaxDatagramSize
)

// rxBatch is one read from the socket: up to rxMessages messages (each
// one datagram, or a GRO run of them), or the error that ended reading.
type rxBatch struct {
	rb  *RecvBatch
	err error
}

// reader is the goroutine that reads the socket in batches and hands
// them to the owner loop on rx; the loop gives them back on free.
type reader struct {
	rx   chan *rxBatch
	free chan *rxBatch
	stop chan struct{}
	wg   sync.WaitGroup
}

// startReader starts the reader goroutine. The first read error is
// handed over and ends it.
func (s *socket) startReader() *reader {
	r := &reader{rx: make(chan *rxBatch, rxBatches), free: make(chan *rxBatch, rxBatches), stop: make(chan struct{})}
	for range rxBatches {
		r.free <- &rxBatch{rb: s.conn.NewRecvBatch(rxMessages, rxBufSize)}
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			var b *rxBatch
			select {
			case b = <-r.free:
			case <-r.stop:
				return
			}
			_, b.err = s.conn.Recv(b.rb)
			select {
			case r.rx <- b:
			case <-r.stop:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return r
}

// recycle gives a batch back to the reader.
func (r *reader) recycle(b *rxBatch) {
	select {
	case r.free <- b:
	default:
	}
}

// stopReader ends the reader goroutine and waits for it: by closing an
// owned socket, else by a read deadline in the past, cleared afterwards.
func (s *socket) stopReader(r *reader) {
	close(r.stop)
	if s.owned {
		s.pc.Close()
	} else {
		s.pc.SetReadDeadline(time.Unix(1, 0))
	}
	r.wg.Wait()
	if !s.owned {
		s.pc.SetReadDeadline(time.Time{})
	}
}

func sameAddr(a net.Addr, b *net.UDPAddr) bool {
	u, ok := a.(*net.UDPAddr)
	return ok && u.Port == b.Port && u.IP.Equal(b.IP)
}
