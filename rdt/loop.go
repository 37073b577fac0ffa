package rdt

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/internal/partfile"
)

// download is one Download call: the part file, the socket, and the
// owner loop that drives a fetch with them.
type download struct {
	cfg  *ClientConfig
	part *partfile.File
	sock *socket
}

// run is the download's owner goroutine: it starts the reader, drives
// the fetch until it ends, and on failure saves the record (and tells
// the server when the caller cancelled).
func (d *download) run(ctx context.Context) (Stats, error) {
	var idb [8]byte
	if _, err := rand.Read(idb[:]); err != nil {
		return Stats{}, fmt.Errorf("rdt: %w", err)
	}
	start := time.Now()
	f := newFetch(d.cfg, binary.BigEndian.Uint64(idb[:]), d.part, d.sock.send, start)
	rd := d.sock.startReader()
	defer d.sock.stopReader(rd)
	f.part.startAsync()
	defer f.part.stop()
	if d.cfg.Progress != nil {
		f.pump = startProgressPump(d.cfg.Progress)
		defer f.pump.stop()
	}

	err := d.loop(ctx, f, rd)
	st := f.recv.stats
	st.Duration = time.Since(start)
	st.Transport = api.TransportRDT
	st.Size = f.recv.size
	if err != nil {
		if serr := f.save(time.Now()); serr != nil {
			d.cfg.Logger.Debug("saving resume record", zap.Error(serr))
		}
		if ctx.Err() != nil {
			f.cancel()
		}
	}
	return st, err
}

// loop selects on the caller's context, the fetch's next wake-up and the
// reader's batches until the file is in place or the download fails.
func (d *download) loop(ctx context.Context, f *fetch, rd *reader) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		if err := f.due(now); err != nil {
			return err
		}
		timer.Reset(max(f.wake().Sub(now), 0))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			if err := f.expired(time.Now()); err != nil {
				return err
			}
		case b := <-rd.rx:
			// Take in what else arrived before answering, unless an ACK
			// is due at once.
			for {
				done, err := d.handleBatch(f, b)
				rd.recycle(b)
				if err != nil || done {
					return err
				}
				if !f.recv.ackNow {
					select {
					case b = <-rd.rx:
						continue
					default:
					}
				}
				break
			}
			f.noteRate(time.Now())
		}
	}
}

// handleBatch hands the server's datagrams in b to the fetch, splitting
// GRO runs. An ACK that news makes due (a gap, a fill, a duplicate, FIN
// or PING: receiver.ackGap) goes out after the message that brought it,
// as soon as the sender can use it, and so before a batch's gaps could
// outgrow the ACK's 32 ranges. One that only the every-second-packet
// rule makes due waits for the end of the batch (the loop sends it
// before reading again): in-order data that arrived while the client was
// busy is acknowledged as one, with fewer sends — on loopback each send
// also runs the server's receive path, tens of microseconds of the
// packet loop's time. The server's window allows for ACKs that come in
// bunches (docs/protocol/rdt.md, ACK aggregation).
func (d *download) handleBatch(f *fetch, b *rxBatch) (done bool, err error) {
	if b.err != nil {
		return false, fmt.Errorf("rdt: reading: %w", b.err)
	}
	now := time.Now()
	for i := range b.rb.Len() {
		m, from, seg := b.rb.Message(i)
		if !sameAddr(from, d.sock.raddr) {
			continue
		}
		for len(m) > 0 {
			var dg []byte
			dg, m = NextSegment(m, seg)
			if done, err := f.handle(dg, now); err != nil || done {
				return done, err
			}
		}
		if f.recv.ackGap && i < b.rb.Len()-1 {
			f.sendAck(now, false)
		}
	}
	return false, nil
}
