package rdt

import (
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"opsassist/internal/partfile"
)

// fetch is the protocol side of one download: the handshake, the
// packets, the acknowledgements and the end, with every time passed in,
// as the server's sender is. It decides when to (re)send the REQUEST,
// when to acknowledge, report progress and save the record, and when the
// server was silent too long; it writes the file's bytes to the part
// file and its packets through send. It reads no clock and no socket, so
// a test drives it with a fake clock. It is not safe for concurrent use.
type fetch struct {
	cfg    *ClientConfig
	recv   *receiver
	part   *partWriter
	pump   *progressPump // nil: progress is reported inline
	send   func(*Packet) error
	expect [32]byte // the SHA-256 the file must have; zero for any
	cookie []byte
	caps   int    // CAPS still to send along with ACKs
	ackPkt Packet // the ACK being sent

	start        time.Time
	accepted     bool // DATA, FIN or PING seen: the REQUEST got through
	heard        bool // any valid packet seen
	lastRecv     time.Time
	retryWait    time.Duration
	nextRequest  time.Time
	requestAt    time.Time // when the last REQUEST went out
	lastNew      time.Time // when DATA last brought new bytes
	lastProgress time.Time
	savedAt      time.Time
	rate         *rateMeter
}

// newFetch starts a download on connection connID at now, resuming the
// ranges part holds.
func newFetch(cfg *ClientConfig, connID uint64, part *partfile.File, send func(*Packet) error, now time.Time) *fetch {
	held := part.Ranges()
	have := make([]Range, len(held))
	for i, x := range held {
		have[i] = Range{Start: x.Start, End: x.End}
	}
	return &fetch{cfg: cfg, recv: newReceiver(connID, cfg.MaxPayload, uint32(cfg.Window), have, part.Size()), part: newPartWriter(part, writeChunkFor(cfg.Window*cfg.MaxPayload)),
		send: send, expect: expectedSum(cfg, part), start: now, lastRecv: now, retryWait: requestRetry, nextRequest: now,
		savedAt: now, rate: newRateMeter(now), caps: capsWithAcks}
}

// due does what is due at now: the REQUEST (again, backing off from
// 25 ms to 1 s) until the server accepted it, a pending ACK, a progress
// report every 100 ms, and a save of the record every 500 ms or once
// half a window arrived since the last.
func (f *fetch) due(now time.Time) error {
	if !f.accepted && !now.Before(f.nextRequest) {
		if err := f.sendRequest(); err != nil {
			return err
		}
		f.requestAt = now
		f.nextRequest = now.Add(f.retryWait)
		f.retryWait = min(f.retryWait*2, time.Second)
	}
	if f.recv.ackDue(now) {
		f.sendAck(now, false)
	}
	if now.Sub(f.lastProgress) >= progressEvery {
		f.lastProgress = now
		f.progress(now)
	}
	if now.Sub(f.savedAt) >= recordEvery || f.part.Unsaved() >= uint64(f.cfg.Window*f.cfg.MaxPayload)/2 {
		// On the writer's goroutine: the fsync never holds up packets.
		f.savedAt = now
		return f.part.SaveLater()
	}
	return nil
}

// wake returns when due or expired must run next.
func (f *fetch) wake() time.Time {
	wake := f.lastRecv.Add(f.cfg.IdleTimeout)
	if !f.heard {
		wake = f.start.Add(f.cfg.FirstPacketTimeout)
	}
	if !f.accepted && f.nextRequest.Before(wake) {
		wake = f.nextRequest
	}
	if t := f.recv.ackDeadline(); !t.IsZero() && t.Before(wake) {
		wake = t
	}
	if t := f.lastProgress.Add(progressEvery); t.Before(wake) {
		wake = t
	}
	return wake
}

// expired returns, for a wake-up at now, ErrNoResponse if no valid
// packet came within FirstPacketTimeout, ErrTimeout if the server then
// went silent for IdleTimeout, else nil.
func (f *fetch) expired(now time.Time) error {
	if !f.heard && !now.Before(f.start.Add(f.cfg.FirstPacketTimeout)) {
		return fmt.Errorf("%w within %v from %s", ErrNoResponse, f.cfg.FirstPacketTimeout, f.cfg.Addr)
	}
	if f.heard && !now.Before(f.lastRecv.Add(f.cfg.IdleTimeout)) {
		return fmt.Errorf("%w for %v", ErrTimeout, f.cfg.IdleTimeout)
	}
	return nil
}

// save records the part file's ranges (partfile.File.Save) at now.
func (f *fetch) save(now time.Time) error {
	f.savedAt = now
	if err := f.part.Save(); err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	return nil
}

// noteRate adds a sample of the bytes held at now to the rate meter.
func (f *fetch) noteRate(now time.Time) { f.rate.add(now, f.recv.have.Total()) }

// handle processes one datagram received at now. done reports that the
// file is verified and in place.
func (f *fetch) handle(b []byte, now time.Time) (done bool, err error) {
	ok, done, err := f.handlePacket(b, now)
	if err != nil {
		return false, err
	}
	if ok {
		f.heard = true
		f.lastRecv = now
	}
	if done {
		f.noteRate(now)
		f.progress(now)
	}
	return done, nil
}

// handlePacket is handle's work; ok reports a valid packet of this
// transfer.
func (f *fetch) handlePacket(b []byte, now time.Time) (ok, done bool, err error) {
	r := f.recv
	p, perr := Parse(b)
	if perr != nil || p.ConnID != r.connID {
		r.stats.Malformed++
		return false, false, nil
	}
	switch p.Type {
	case TypeRetry:
		if !f.accepted {
			f.cookie = append(f.cookie[:0], p.Cookie...)
			if err := f.sendRequest(); err != nil {
				return true, false, err
			}
			// The RETRY measured the round trip: a lost REQUEST with the
			// cookie (or the first DATA) is repeated after twice that,
			// not after the blind backoff meant for an unknown path.
			wait := min(max(2*now.Sub(f.requestAt), cookieRetryMin), cookieRetryMax)
			f.requestAt, f.nextRequest, f.retryWait = now, now.Add(wait), min(2*wait, time.Second)
		}
	case TypeError:
		return true, false, &RemoteError{Code: p.Code, Reason: p.Reason}
	case TypeData:
		f.accepted = true
		write, derr := r.onData(&p, now)
		if derr != nil {
			r.stats.Malformed++
			return false, false, nil
		}
		if f.part.Size() < 0 {
			f.part.SetSize(int64(p.Size))
		}
		if write {
			if !f.lastNew.IsZero() {
				r.stats.MaxStall = max(r.stats.MaxStall, now.Sub(f.lastNew))
			}
			f.lastNew = now
			if err := f.part.WriteAt(p.Payload, p.Offset); err != nil {
				return true, false, fmt.Errorf("rdt: %w", err)
			}
		}
	case TypeFin:
		f.accepted = true
		if err := r.onFin(&p, now); err != nil {
			r.stats.Malformed++
			return false, false, nil
		}
		if f.expect != ([32]byte{}) && p.SHA256 != f.expect {
			f.send(&Packet{Type: TypeError, ConnID: r.connID, Code: CodeWrongFile, Reason: "sha256 differs from the offer"})
			f.part.Discard()
			return true, false, fmt.Errorf("%w: server offers sha256 %x", ErrWrongFile, p.SHA256)
		}
		f.part.SetSize(int64(p.Size))
		f.part.SetSHA256(hex.EncodeToString(p.SHA256[:]))
	case TypePing:
		f.accepted = true
		r.onPing(&p, now)
	default:
		r.stats.Malformed++
		return false, false, nil
	}
	if r.complete() {
		if err := f.finish(now); err != nil {
			return true, false, err
		}
		return true, true, nil
	}
	return true, false, nil
}

// finish acknowledges everything at once, verifies the SHA-256, moves
// the file into place and tells the server. The first ACK goes out
// before the verification (hashing the tail, fsync, rename), so the
// server learns that every byte arrived — and gives the transfer's slot
// back — even when nothing the client sends afterwards gets through: a
// relay that goes away once the client has its file loses the
// confirmation, not the acknowledgement.
func (f *fetch) finish(now time.Time) error {
	f.sendAck(now, false)
	err := f.part.Commit(f.recv.sha256)
	if errors.Is(err, partfile.ErrChecksum) {
		f.send(&Packet{Type: TypeError, ConnID: f.recv.connID, Code: CodeChecksum, Reason: "sha256 mismatch"})
		return fmt.Errorf("%w: %s", ErrChecksum, f.cfg.Path)
	}
	if err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	for range doneAcks {
		f.sendAck(now, true)
	}
	return nil
}

// cancel tells the server the client gave up.
func (f *fetch) cancel() {
	f.send(&Packet{Type: TypeError, ConnID: f.recv.connID, Code: CodeCancelled, Reason: "client cancelled"})
}

func (f *fetch) sendRequest() error {
	have := largestRanges(f.recv.heldRanges(), MaxHaveRanges)
	p := Packet{Type: TypeRequest, ConnID: f.recv.connID, Token: f.cfg.Token, Cookie: f.cookie, Expect: f.expect,
		MaxPayload: uint16(f.cfg.MaxPayload), Window: uint32(f.cfg.Window), Have: have}
	if err := f.send(&p); err != nil {
		return err
	}
	if len(f.cookie) > 0 { // a REQUEST that can start the transfer
		return f.sendCaps()
	}
	return nil
}

// largestRanges keeps the n largest of rs (ascending), so a fragmented
// partial file loses as few held bytes as possible from its REQUEST.
func largestRanges(rs []Range, n int) []Range {
	if len(rs) <= n {
		return rs
	}
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(b.End-b.Start, a.End-a.Start) })
	rs = rs[:n]
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	return rs
}

func (f *fetch) sendAck(now time.Time, done bool) {
	f.ackPkt = f.recv.ack(now, done) // reused: no allocation per ACK
	f.send(&f.ackPkt)
	if f.caps > 0 && !done {
		f.caps--
		f.sendCaps()
	}
}
