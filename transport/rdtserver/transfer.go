package rdtserver

import (
	"errors"
	"net"
	"os"
	"time"

	"opsassist/rdt"

	"go.uber.org/zap"
)

// sendBatch is how many packets a transfer sends before looking at its
// incoming ACKs again.
const sendBatch = 32

// confirmWait is how long a transfer whose bytes were all acknowledged
// waits for the client's confirmation before ending without it.
const confirmWait = time.Second

// errIdle ends a transfer whose client went silent.
var errIdle = errors.New("rdtserver: client went silent")

// errPanicked ends a transfer whose loop panicked.
var errPanicked = errors.New("rdtserver: transfer failed internally")

// errAborted ends a transfer on server shutdown.
var errAborted = errors.New("rdtserver: server shutting down")

// errEvicted ends a lingering transfer whose FIN was never acknowledged
// when too many others linger.
var errEvicted = errors.New("rdtserver: too many finished transfers waiting for their confirmation")

// transfer is one file being sent. Its run goroutine owns the sender.
type transfer struct {
	srv     *Server
	connID  uint64
	addr    string
	udpAddr net.Addr
	host    string
	file    *os.File
	name    string
	snd     *sender
	in      chan rdt.Packet
	log     *zap.Logger
	start   time.Time

	// retired: every byte was acknowledged, the slot is given back and
	// the file closed (owned by the run goroutine).
	retired bool
	// evict is closed to end a lingering transfer early (Server.retire).
	evict chan struct{}

	// Guarded by srv.mu.
	slot      bool // counted in srv.slots and srv.perAddr
	retiredAt time.Time
	evicted   bool
}

// run drives the sender until the client confirms the file, fails, goes
// silent, or the server shuts down.
func (t *transfer) run() {
	s := t.srv
	defer s.wg.Done()
	defer t.closeFile()

	err := t.drive()
	switch {
	case errors.Is(err, errAborted):
		s.sendError(t.connID, t.udpAddr, rdt.CodeShuttingDown, "server is shutting down; resume later")
	case errors.Is(err, errPanicked):
		s.sendError(t.connID, t.udpAddr, rdt.CodeInternal, "internal error; the transfer was stopped")
	case errors.Is(err, errReadFile):
		s.sendError(t.connID, t.udpAddr, rdt.CodeInternal, "reading the file failed")
	case errors.Is(err, errPNExhausted):
		s.sendError(t.connID, t.udpAddr, rdt.CodeInternal, "packet numbers exhausted; resume to continue")
	}
	st := t.stats()
	st.Err = err
	s.release(t) // before OnTransfer: the server has forgotten the transfer
	t.logEnd(st)
	if s.cfg.OnTransfer != nil {
		s.cfg.OnTransfer(st)
	}
}

// closeFile closes the file once.
func (t *transfer) closeFile() {
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
}

// retireIfDelivered gives the slot back (Server.retire) and closes the
// file once the client acknowledged every byte: the sender reads the
// file no more, and the client holds all of it.
func (t *transfer) retireIfDelivered() {
	if t.retired || !t.snd.dataAcked() {
		return
	}
	t.retired = true
	t.closeFile()
	t.srv.retire(t)
	t.log.Debug("rdt transfer acknowledged, slot given back")
}

// drive runs the sender's loop and returns why it ended. A panic in it
// ends this transfer with errPanicked (logged with its stack; the client
// gets an internal error) and leaves the server and other transfers
// running.
func (t *transfer) drive() (err error) {
	s := t.srv
	defer func() {
		if p := recover(); p != nil {
			t.log.Error("rdt transfer panicked", zap.Any("panic", p), zap.Stack("stack"))
			err = errPanicked
		}
	}()

	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	batch := rdt.NewSendBatch(sendBatch, rdt.MaxPacketSize)
	lastRecv := time.Now()
loop:
	for {
		t.retireIfDelivered()
		now := time.Now()
		if s.cfg.RateLimit > 0 {
			t.snd.cfg.cc.setRateCap(s.rateShare(int(s.active.Load())))
		}
		if werr := t.sendDue(batch, now); errors.Is(werr, net.ErrClosed) {
			err = errAborted
			break loop
		}
		if done, serr := t.snd.finished(); done {
			err = serr
			break
		}
		deadline := t.snd.deadline(now)
		idle := lastRecv.Add(s.cfg.IdleTimeout)
		if t.snd.allDelivered() {
			// Only the client's confirmation is missing; its three copies
			// may all have been lost. Do not hold the slot for long.
			idle = lastRecv.Add(min(s.cfg.IdleTimeout, max(confirmWait, 4*t.snd.cfg.rtt.pto())))
		}
		if deadline.IsZero() || deadline.After(idle) {
			deadline = idle
		}
		if !deadline.After(now) {
			// More to send at once; still take in what arrived.
			select {
			case p := <-t.in:
				lastRecv = now
				if err = t.handle(&p, now); err != nil {
					break loop
				}
			case <-s.quit:
				err = errAborted
				break loop
			case <-t.evict:
				err = t.evictErr()
				break loop
			default:
				t.snd.onTimer(now)
			}
			continue
		}
		timer.Reset(deadline.Sub(now))
		select {
		case p := <-t.in:
			now = time.Now()
			lastRecv = now
			if err = t.handle(&p, now); err != nil {
				break loop
			}
			for more := true; more; {
				select {
				case p := <-t.in:
					if err = t.handle(&p, now); err != nil {
						break loop
					}
				default:
					more = false
				}
			}
		case <-timer.C:
			now = time.Now()
			if !now.Before(idle) {
				if !t.snd.allDelivered() {
					err = errIdle
				}
				break loop
			}
			t.snd.onTimer(now)
		case <-s.quit:
			err = errAborted
			break loop
		case <-t.evict:
			err = t.evictErr()
			break loop
		}
	}
	return err
}

// evictErr is why an evicted lingering transfer ended: nil when the
// client acknowledged the FIN too (it holds the file and its checksum),
// errEvicted when the FIN may not have reached it.
func (t *transfer) evictErr() error {
	if t.snd.allDelivered() {
		return nil
	}
	return errEvicted
}

// handle processes one packet from the client.
func (t *transfer) handle(p *rdt.Packet, now time.Time) error {
	switch p.Type {
	case rdt.TypeAck:
		t.snd.onAck(p, now)
	case rdt.TypeError:
		return &rdt.RemoteError{Code: p.Code, Reason: p.Reason}
	case rdt.TypeCaps:
		if t.srv.probing {
			t.snd.onCaps(min(int(p.MaxDatagram), t.srv.cfg.MaxDatagram))
		}
	}
	return nil
}

func (t *transfer) stats() TransferStats {
	st := t.snd.stats
	st.ConnID, st.Remote, st.File = t.connID, t.addr, t.name
	st.Duration = time.Since(t.start)
	st.SRTT, st.MinRTT = t.snd.cfg.rtt.smoothed(), t.snd.cfg.rtt.min()
	st.Bandwidth = t.snd.cfg.cc.bandwidth()
	st.Cwnd = t.snd.cfg.cc.cwnd()
	st.Payload = t.snd.payload
	return st
}

func (t *transfer) logEnd(st TransferStats) {
	fields := []zap.Field{zap.String("file", st.File), zap.Int64("size", st.Size), zap.Int64("resumed", st.Resumed),
		zap.Int64("bytes_sent", st.BytesSent), zap.Int64("packets_sent", st.PacketsSent),
		zap.Int64("retransmits", st.Retransmits), zap.Int64("tail_copies", st.TailCopies), zap.Int64("spurious", st.Spurious), zap.Int64("lost", st.Lost),
		zap.Int64("ptos", st.PTOs), zap.Duration("duration", st.Duration), zap.Duration("srtt", st.SRTT),
		zap.Duration("min_rtt", st.MinRTT), zap.Float64("bandwidth_bps", st.Bandwidth*8), zap.Int("cwnd", st.Cwnd),
		zap.Int("payload", st.Payload), zap.Int64("black_holes", st.BlackHoles)}
	if st.Err != nil {
		t.log.Warn("rdt transfer failed", append(fields, zap.Error(st.Err))...)
		return
	}
	t.log.Info("rdt transfer done", fields...)
}
