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
// socket allows (sendmmsg, GSO). Only a closed socket is an error worth
// returning; other send errors are logged, as UDP losses are.
func (t *transfer) sendDue(batch *rdt.SendBatch, now time.Time) error {
	for range sendBatch {
		b, ok := t.snd.next(now, batch.Tail()[:0])
		if !ok {
			break
		}
		batch.Add(b)
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
