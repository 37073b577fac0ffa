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
	raddr *net.UDPAddr
	// owned: Download opened pc, so closing it stops the reader;
	// otherwise a past read deadline does, and pc is left open.
	owned bool
	buf   []byte
	log   *zap.Logger
}

func newSocket(pc net.PacketConn, raddr *net.UDPAddr, owned bool, log *zap.Logger) *socket {
	return &socket{pc: pc, raddr: raddr, owned: owned, buf: make([]byte, 0, MaxPacketSize), log: log}
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

// datagram is one read from the socket: the buffer, the bytes read into
// it, or the error that ended reading.
type datagram struct {
	b   []byte
	n   int
	err error
}

// reader is the goroutine that reads the socket and hands the server's
// datagrams to the owner loop on rx; the loop gives buffers back on
// free.
type reader struct {
	rx   chan datagram
	free chan []byte
	stop chan struct{}
	wg   sync.WaitGroup
}

// startReader starts the reader goroutine. Datagrams from other
// addresses are dropped; the first read error is handed over and ends it.
func (s *socket) startReader() *reader {
	r := &reader{rx: make(chan datagram, 512), free: make(chan []byte, 512), stop: make(chan struct{})}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			var b []byte
			select {
			case b = <-r.free:
			default:
				b = make([]byte, 2048)
			}
			n, from, err := s.pc.ReadFrom(b)
			if err == nil && !sameAddr(from, s.raddr) {
				continue
			}
			select {
			case r.rx <- datagram{b, n, err}:
			case <-r.stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

// recycle gives a datagram's buffer back to the reader.
func (r *reader) recycle(b []byte) {
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
