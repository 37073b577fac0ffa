package rdt

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Client defaults.
const (
	// DefaultFirstPacketTimeout is how long Download waits for any RDT
	// packet before giving up with ErrNoResponse.
	DefaultFirstPacketTimeout = 3 * time.Second
	// DefaultIdleTimeout is how long Download waits for the server in the
	// middle of a transfer.
	DefaultIdleTimeout = 10 * time.Second
	requestRetry       = 200 * time.Millisecond
	progressEvery      = 100 * time.Millisecond
	recordEvery        = 500 * time.Millisecond
	hashChunk          = 1 << 20
	doneAcks           = 3
)

// ClientConfig configures Download. The zero value of each optional field
// means the default in its comment.
type ClientConfig struct {
	// Addr is the server's UDP address, host:port. Required.
	Addr string
	// Token is the download token. Required.
	Token string
	// Path is where the file goes. Required. PATH.part and
	// PATH.part.rdt hold a partial download.
	Path string
	// SHA256, if set (hex), is the checksum the file must have; a token
	// for another file is refused.
	SHA256 string
	// Progress, if set, is called about every 100 ms and once at the
	// end, from Download's goroutine.
	Progress func(Progress)
	// Logger receives debug logs. Default: discard.
	Logger *zap.Logger
	// FirstPacketTimeout: no RDT packet within it fails with
	// ErrNoResponse. Default 3s.
	FirstPacketTimeout time.Duration
	// IdleTimeout: a server silent this long mid-transfer fails with
	// ErrTimeout (run again to resume). Default 10s.
	IdleTimeout time.Duration
	// MaxPayload is the largest DATA payload to ask for, in
	// [MinPayload, MaxPayload]. Default 1200.
	MaxPayload int
	// Window is the receive window in packets. Default 4096.
	Window int
	// Conn, if set, is the socket to use; Download does not close it.
	// Default: a new UDP socket.
	Conn net.PacketConn
}

func (c *ClientConfig) populate() error {
	if c.Addr == "" || c.Token == "" || c.Path == "" {
		return fmt.Errorf("%w: Addr, Token and Path are required", ErrBadConfig)
	}
	if len(c.Token) > MaxTokenLen {
		return fmt.Errorf("%w: token longer than %d bytes", ErrBadConfig, MaxTokenLen)
	}
	if c.SHA256 != "" {
		if b, err := hex.DecodeString(c.SHA256); err != nil || len(b) != 32 {
			return fmt.Errorf("%w: SHA256 is not 64 hex digits", ErrBadConfig)
		}
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.FirstPacketTimeout <= 0 {
		c.FirstPacketTimeout = DefaultFirstPacketTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxPayload == 0 {
		c.MaxPayload = DefaultPayload
	}
	if c.MaxPayload < MinPayload || c.MaxPayload > MaxPayload {
		return fmt.Errorf("%w: MaxPayload %d not in [%d, %d]", ErrBadConfig, c.MaxPayload, MinPayload, MaxPayload)
	}
	if c.Window <= 0 {
		c.Window = DefaultWindow
	}
	return nil
}

// Download fetches the file named by cfg.Token into cfg.Path and returns
// once its SHA-256 matched and it was renamed into place. An interrupted
// download leaves PATH.part and its record; calling Download again with
// the same token (or the same SHA256) fetches only what is missing.
func Download(ctx context.Context, cfg ClientConfig) (Stats, error) {
	if err := cfg.populate(); err != nil {
		return Stats{}, err
	}
	raddr, err := net.ResolveUDPAddr("udp", cfg.Addr)
	if err != nil {
		return Stats{}, fmt.Errorf("rdt: resolving %s: %w", cfg.Addr, err)
	}
	d := &download{cfg: cfg, raddr: raddr, log: cfg.Logger, part: cfg.Path + PartSuffix}
	d.recPath = d.part + RecordSuffix
	if err := d.open(); err != nil {
		return Stats{}, err
	}
	defer d.file.Close()
	pc := cfg.Conn
	if pc == nil {
		pc, err = net.ListenUDP("udp", nil)
		if err != nil {
			return Stats{}, fmt.Errorf("rdt: %w", err)
		}
		defer pc.Close()
		SetSocketBuffers(pc)
	}
	d.pc = pc
	return d.run(ctx)
}

// download is one Download call.
type download struct {
	cfg     ClientConfig
	raddr   *net.UDPAddr
	pc      net.PacketConn
	log     *zap.Logger
	part    string
	recPath string
	file    *os.File
	rec     *record
	expect  [32]byte
	recv    *receiver
	cookie  []byte

	lastNew     time.Time // when DATA last brought new bytes
	discarded   bool      // the partial file was deleted: no record
	hasher      hash.Hash
	hashed      uint64
	recordedAt  time.Time
	recordedLen uint64
	buf         []byte
}

// open opens PATH.part, resuming it if its record belongs to this token
// or file, else starting afresh.
func (d *download) open() error {
	if d.cfg.SHA256 != "" {
		b, _ := hex.DecodeString(d.cfg.SHA256)
		d.expect = [32]byte(b)
	}
	if dir := filepath.Dir(d.cfg.Path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("rdt: %w", err)
		}
	}
	rec, err := loadRecord(d.recPath)
	if err != nil {
		d.log.Debug("ignoring unreadable resume record", zap.Error(err))
		rec = nil
	}
	if rec != nil && !(rec.Token == d.cfg.Token || d.cfg.SHA256 != "" && rec.SHA256 == d.cfg.SHA256) {
		rec = nil
	}
	if rec != nil && d.cfg.SHA256 != "" && rec.SHA256 != "" && rec.SHA256 != d.cfg.SHA256 {
		rec = nil
	}
	flags := os.O_RDWR | os.O_CREATE
	if rec == nil {
		flags |= os.O_TRUNC
		rec = &record{Token: d.cfg.Token, SHA256: d.cfg.SHA256, Size: -1}
	} else if rec.SHA256 != "" && d.cfg.SHA256 == "" {
		b, err := hex.DecodeString(rec.SHA256)
		if err == nil && len(b) == 32 {
			d.expect = [32]byte(b)
		}
	}
	f, err := os.OpenFile(d.part, flags, 0o600)
	if err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	d.file, d.rec = f, rec
	return nil
}

type rxPacket struct {
	b   []byte
	n   int
	err error
}

// run is the download's owner loop.
func (d *download) run(ctx context.Context) (Stats, error) {
	var idb [8]byte
	if _, err := rand.Read(idb[:]); err != nil {
		return Stats{}, fmt.Errorf("rdt: %w", err)
	}
	start := time.Now()
	d.recv = newReceiver(binary.BigEndian.Uint64(idb[:]), d.cfg.MaxPayload, uint32(d.cfg.Window), d.rec.have(), d.rec.Size)
	d.recordedLen = d.recv.have.Total()
	d.recordedAt = start
	d.buf = make([]byte, 0, MaxPacketSize)

	// The reader goroutine hands datagrams over and gets buffers back.
	rx := make(chan rxPacket, 512)
	free := make(chan []byte, 512)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			var b []byte
			select {
			case b = <-free:
			default:
				b = make([]byte, 2048)
			}
			n, from, err := d.pc.ReadFrom(b)
			if err == nil && !sameAddr(from, d.raddr) {
				continue
			}
			select {
			case rx <- rxPacket{b, n, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		if d.cfg.Conn != nil {
			d.cfg.Conn.SetReadDeadline(time.Unix(1, 0))
		} else {
			d.pc.Close()
		}
		wg.Wait()
		if d.cfg.Conn != nil {
			d.cfg.Conn.SetReadDeadline(time.Time{})
		}
	}()

	st, err := d.loop(ctx, rx, free, start)
	st.Duration = time.Since(start)
	st.Transport = "rdt"
	st.Size = d.recv.size
	if err != nil {
		if serr := d.saveRecord(); serr != nil {
			d.log.Debug("saving resume record", zap.Error(serr))
		}
		if ctx.Err() != nil {
			d.sendPacket(&Packet{Type: TypeError, ConnID: d.recv.connID, Code: CodeCancelled, Reason: "client cancelled"})
		}
	}
	return st, err
}

func sameAddr(a net.Addr, b *net.UDPAddr) bool {
	u, ok := a.(*net.UDPAddr)
	return ok && u.Port == b.Port && u.IP.Equal(b.IP)
}

// loop runs the handshake and the transfer.
func (d *download) loop(ctx context.Context, rx chan rxPacket, free chan []byte, start time.Time) (Stats, error) {
	r := d.recv
	firstDeadline := start.Add(d.cfg.FirstPacketTimeout)
	accepted := false // DATA, FIN or PING seen
	heard := false    // any valid packet seen
	lastRecv := start
	retryWait := requestRetry
	nextRequest := start
	lastProgress := time.Time{}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	rate := newRateMeter(start)
	for {
		now := time.Now()
		if !accepted && !now.Before(nextRequest) {
			if err := d.sendRequest(); err != nil {
				return r.stats, err
			}
			nextRequest = now.Add(retryWait)
			retryWait = min(retryWait*2, time.Second)
		}
		if r.ackDue(now) {
			d.sendAck(now, false)
		}
		if now.Sub(lastProgress) >= progressEvery {
			lastProgress = now
			d.progress(now, start, rate)
		}
		if now.Sub(d.recordedAt) >= recordEvery || r.have.Total()-d.recordedLen >= uint64(d.cfg.Window*d.cfg.MaxPayload)/2 {
			if err := d.saveRecord(); err != nil {
				return r.stats, err
			}
		}
		// Next wake-up.
		wake := lastRecv.Add(d.cfg.IdleTimeout)
		if !heard {
			wake = firstDeadline
		}
		if !accepted && nextRequest.Before(wake) {
			wake = nextRequest
		}
		if t := r.ackDeadline(); !t.IsZero() && t.Before(wake) {
			wake = t
		}
		if t := lastProgress.Add(progressEvery); t.Before(wake) {
			wake = t
		}
		timer.Reset(max(wake.Sub(now), 0))
		select {
		case <-ctx.Done():
			return r.stats, ctx.Err()
		case <-timer.C:
			now = time.Now()
			if !heard && !now.Before(firstDeadline) {
				return r.stats, fmt.Errorf("%w within %v from %s", ErrNoResponse, d.cfg.FirstPacketTimeout, d.cfg.Addr)
			}
			if heard && !now.Before(lastRecv.Add(d.cfg.IdleTimeout)) {
				return r.stats, fmt.Errorf("%w for %v", ErrTimeout, d.cfg.IdleTimeout)
			}
		case p := <-rx:
			for {
				if p.err != nil {
					return r.stats, fmt.Errorf("rdt: reading: %w", p.err)
				}
				now = time.Now()
				ok, done, err := d.handle(p.b[:p.n], now, &accepted)
				select {
				case free <- p.b:
				default:
				}
				if err != nil {
					return r.stats, err
				}
				if ok {
					heard = true
					lastRecv = now
				}
				if done {
					rate.add(now, r.have.Total())
					d.progress(now, start, rate)
					return r.stats, nil
				}
				if !r.ackNow {
					select {
					case p = <-rx:
						continue
					default:
					}
				}
				break
			}
			rate.add(now, r.have.Total())
		}
	}
}

// handle processes one datagram. ok reports a valid packet of this
// transfer; done that the file is verified and in place.
func (d *download) handle(b []byte, now time.Time, accepted *bool) (ok, done bool, err error) {
	r := d.recv
	p, perr := Parse(b)
	if perr != nil || p.ConnID != r.connID {
		r.stats.Malformed++
		return false, false, nil
	}
	switch p.Type {
	case TypeRetry:
		if !*accepted {
			d.cookie = append(d.cookie[:0], p.Cookie...)
			if err := d.sendRequest(); err != nil {
				return true, false, err
			}
		}
	case TypeError:
		return true, false, &RemoteError{Code: p.Code, Reason: p.Reason}
	case TypeData:
		*accepted = true
		write, derr := r.onData(&p, now)
		if derr != nil {
			r.stats.Malformed++
			return false, false, nil
		}
		if d.rec.Size < 0 {
			d.rec.Size = int64(p.Size)
		}
		if write {
			if !d.lastNew.IsZero() {
				r.stats.MaxStall = max(r.stats.MaxStall, now.Sub(d.lastNew))
			}
			d.lastNew = now
			if _, err := d.file.WriteAt(p.Payload, int64(p.Offset)); err != nil {
				return true, false, fmt.Errorf("rdt: writing %s: %w", d.part, err)
			}
		}
	case TypeFin:
		*accepted = true
		if err := r.onFin(&p, now); err != nil {
			r.stats.Malformed++
			return false, false, nil
		}
		if d.expect != ([32]byte{}) && p.SHA256 != d.expect {
			d.sendPacket(&Packet{Type: TypeError, ConnID: r.connID, Code: CodeWrongFile, Reason: "sha256 differs from the offer"})
			d.discard()
			return true, false, fmt.Errorf("%w: server offers sha256 %x", ErrWrongFile, p.SHA256)
		}
		d.rec.Size = int64(p.Size)
		d.rec.SHA256 = hex.EncodeToString(p.SHA256[:])
	case TypePing:
		*accepted = true
		r.onPing(&p, now)
	default:
		r.stats.Malformed++
		return false, false, nil
	}
	if err := d.hashPrefix(false); err != nil {
		return true, false, err
	}
	if r.complete() {
		if err := d.finish(now); err != nil {
			return true, false, err
		}
		return true, true, nil
	}
	return true, false, nil
}

// hashPrefix feeds the contiguous prefix received so far to the SHA-256,
// in chunks of at least hashChunk unless all is true.
func (d *download) hashPrefix(all bool) error {
	if d.hasher == nil {
		d.hasher = sha256.New()
	}
	end := d.recv.have.Prefix()
	if d.recv.size >= 0 {
		end = min(end, uint64(d.recv.size))
	}
	if end <= d.hashed || !all && end-d.hashed < hashChunk {
		return nil
	}
	_, err := io.Copy(d.hasher, io.NewSectionReader(d.file, int64(d.hashed), int64(end-d.hashed)))
	if err != nil {
		return fmt.Errorf("rdt: reading back %s: %w", d.part, err)
	}
	d.hashed = end
	return nil
}

// finish verifies the SHA-256, moves the file into place and tells the
// server.
func (d *download) finish(now time.Time) error {
	r := d.recv
	if err := d.hashPrefix(true); err != nil {
		return err
	}
	if [32]byte(d.hasher.Sum(nil)) != r.sha256 {
		d.sendPacket(&Packet{Type: TypeError, ConnID: r.connID, Code: CodeChecksum, Reason: "sha256 mismatch"})
		d.discard()
		return fmt.Errorf("%w: %s", ErrChecksum, d.cfg.Path)
	}
	if err := d.file.Truncate(r.size); err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	if err := d.file.Sync(); err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	if err := d.file.Close(); err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	if err := os.Rename(d.part, d.cfg.Path); err != nil {
		return fmt.Errorf("rdt: %w", err)
	}
	os.Remove(d.recPath)
	if dir, err := os.Open(filepath.Dir(d.cfg.Path)); err == nil {
		dir.Sync()
		dir.Close()
	}
	for range doneAcks {
		d.sendAck(now, true)
	}
	return nil
}

// discard deletes the partial file and its record: its bytes cannot be
// trusted for this token (checksum mismatch, another file).
func (d *download) discard() {
	d.discarded = true
	d.file.Close()
	os.Remove(d.part)
	os.Remove(d.recPath)
}

// saveRecord flushes PATH.part and records its ranges.
func (d *download) saveRecord() error {
	if d.discarded {
		return nil
	}
	d.recordedAt = time.Now()
	have := d.recv.have.Total()
	if have == d.recordedLen && fileExists(d.recPath) {
		return nil
	}
	if err := d.file.Sync(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("rdt: %w", err)
	}
	d.rec.Ranges = d.rec.Ranges[:0]
	for _, x := range d.recv.have.Ranges() {
		d.rec.Ranges = append(d.rec.Ranges, [2]uint64{x.Start, x.End})
	}
	if d.recv.size >= 0 {
		d.rec.Size = d.recv.size
	}
	if err := d.rec.save(d.recPath); err != nil {
		return fmt.Errorf("rdt: saving resume record: %w", err)
	}
	d.recordedLen = have
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func (d *download) sendRequest() error {
	have := largestRanges(d.recv.heldRanges(), MaxHaveRanges)
	p := Packet{Type: TypeRequest, ConnID: d.recv.connID, Token: d.cfg.Token, Cookie: d.cookie, Expect: d.expect,
		MaxPayload: uint16(d.cfg.MaxPayload), Window: uint32(d.cfg.Window), Have: have}
	return d.sendPacket(&p)
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

func (d *download) sendAck(now time.Time, done bool) {
	a := d.recv.ack(now, done)
	d.sendPacket(&a)
}

// sendPacket encodes and sends p. Send errors on UDP are transient and
// only logged, except a closed socket.
func (d *download) sendPacket(p *Packet) error {
	b, err := p.Append(d.buf[:0])
	if err != nil {
		return fmt.Errorf("rdt: encoding %s: %w", p.Type, err)
	}
	if _, err := d.pc.WriteTo(b, d.raddr); err != nil {
		if errors.Is(err, net.ErrClosed) {
			return err
		}
		d.log.Debug("udp write failed", zap.Error(err))
	}
	return nil
}

func (d *download) progress(now, start time.Time, rate *rateMeter) {
	if d.cfg.Progress == nil {
		return
	}
	got := int64(d.recv.have.Total())
	p := Progress{Received: got, Size: d.recv.size, Rate: rate.rate(), Elapsed: now.Sub(start)}
	if p.Size >= 0 && p.Rate > 0 {
		p.ETA = time.Duration(float64(p.Size-got) / p.Rate * float64(time.Second))
	}
	d.cfg.Progress(p)
}

// rateMeter measures a recent rate from (time, total) samples over about
// two seconds.
type rateMeter struct {
	t [8]time.Time
	v [8]uint64
	i int
}

func newRateMeter(now time.Time) *rateMeter {
	m := &rateMeter{}
	for k := range m.t {
		m.t[k] = now
	}
	return m
}

func (m *rateMeter) add(now time.Time, total uint64) {
	last := (m.i + len(m.t) - 1) % len(m.t)
	if now.Sub(m.t[last]) < 250*time.Millisecond {
		m.v[last] = total
		return
	}
	m.t[m.i], m.v[m.i] = now, total
	m.i = (m.i + 1) % len(m.t)
}

func (m *rateMeter) rate() float64 {
	last := (m.i + len(m.t) - 1) % len(m.t)
	first := m.i
	el := m.t[last].Sub(m.t[first]).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(m.v[last]-m.v[first]) / el
}
