package rdtserver

import (
	"errors"
	"net"
	"time"

	"go.uber.org/zap"

	"opsassist/rdt"
)

// sendDue packs every packet the sender may send at now, up to
// sendBatch, into batch and sends them in as few system calls as the
// socket allows (sendmmsg, GSO). A path MTU probe goes out on its own,
// so a refusal (EMSGSIZE: larger than the interface's MTU) is its own.
// Only a closed socket is an error worth returning; other send errors
// are logged, as UDP losses are.
func (t *transfer) sendDue(batch *rdt.SendBatch, now time.Time) error {
	for range sendBatch {
		b, ok := t.snd.next(now, batch.Tail()[:0])
		if !ok {
			break
		}
		if !t.snd.sentProbe() {
			batch.Add(b)
			continue
		}
		err := t.srv.write(b, t.udpAddr)
		if errors.Is(err, net.ErrClosed) {
			return err
		}
		if rdt.IsMessageTooLong(err) {
			t.snd.probeRefused()
		}
	}
	return t.srv.writeBatch(batch, t.udpAddr)
}

// writeBatch sends a batch of datagrams to addr and empties it.
func (s *Server) writeBatch(b *rdt.SendBatch, addr net.Addr) error {
	if b.Len() == 0 {
		return nil
	}
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		b.Reset()
		return net.ErrClosed
	}
	err := c.Send(b, addr)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		if ce := s.log.Check(zap.DebugLevel, "udp write failed"); ce != nil {
			ce.Write(zap.Stringer("to", addr), zap.Error(err))
		}
	}
	return err
}
