package uploads

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"opsassist/storage/fsutil"
)

// writebackStep is how much data accumulates before disk writeback is
// started for it.
const writebackStep = 4 << 20

// hashChunk is how much the hasher reads back at a time.
const hashChunk = 256 << 10

// Pending is an upload in progress. Its methods are for one goroutine.
//
// Data goes straight into the temp file. A goroutine of the Pending's own
// reads it back from the page cache and hashes it as it lands, so hashing
// overlaps with receiving instead of slowing the receiver; disk writeback
// is started every 4 MiB so the fsync at commit has little left to do.
type Pending struct {
	store     *Store
	id        string
	name      string
	size      int64
	received  int64 // bytes in the file
	flushedTo int64 // writeback has been started up to here
	want      []byte
	f         *os.File
	done      bool  // committed or aborted
	open      bool  // BeginStream: size is the limit until End
	stopped   bool  // stop is closed
	reserved  int64 // bytes booked against the store's quota: those written

	written atomic.Int64  // received, published to hashLoop
	abandon atomic.Bool   // Abort: hashLoop should quit at once
	wake    chan struct{} // nudges hashLoop after a write
	stop    chan struct{} // closed when no more data will come
	hashed  chan struct{} // closed when hashLoop exits
	sum     []byte        // set by hashLoop before hashed closes
	herr    error         // set by hashLoop before hashed closes
}

func newPending(s *Store, id, name string, size int64, want []byte, f *os.File) *Pending {
	p := &Pending{store: s, id: id, name: name, size: size, want: want, f: f,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), hashed: make(chan struct{})}
	go p.hashLoop()
	return p
}

// ID returns the file id the upload will have.
func (p *Pending) ID() string { return p.id }

// Name returns the sanitised file name.
func (p *Pending) Name() string { return p.name }

// Size returns the declared size.
func (p *Pending) Size() int64 { return p.size }

// Received returns the number of bytes written so far.
func (p *Pending) Received() int64 { return p.received }

// Complete reports whether all declared bytes have arrived.
func (p *Pending) Complete() bool { return p.received == p.size }

// Remaining returns how many bytes are still expected.
func (p *Pending) Remaining() int64 { return p.size - p.received }

// Write appends upload data, booking it against the store's quota. It
// returns ErrOverflow, writing nothing, if b would take the upload past
// its declared size, and a *QuotaError, writing nothing, if b does not
// fit in the quota.
func (p *Pending) Write(b []byte) (int, error) {
	if int64(len(b)) > p.Remaining() {
		if p.open {
			return 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, p.size)
		}
		return 0, p.overflow(int64(len(b)))
	}
	// The quota is booked as data arrives, so an upload that stops
	// sending holds only what it wrote.
	if err := p.store.reserve(int64(len(b))); err != nil {
		var qe *QuotaError
		if !p.open && errors.As(err, &qe) {
			qe.Need = p.Remaining() // what the file still needs, not this chunk
		}
		return 0, err
	}
	n, err := p.f.Write(b)
	p.reserved += int64(n)
	if n < len(b) {
		p.store.release(int64(len(b)-n), false)
	}
	p.advance(int64(n))
	if err != nil {
		return n, fmt.Errorf("uploads: writing: %w", err)
	}
	return n, nil
}

// End marks a streamed upload (BeginStream) complete at the bytes
// received so far. It does nothing for an upload of declared size.
func (p *Pending) End() {
	if !p.open {
		return
	}
	p.open = false
	p.size = p.received
	if p.received > p.flushedTo {
		startWriteback(p.f, p.flushedTo, p.received-p.flushedTo)
		p.flushedTo = p.received
	}
}

func (p *Pending) overflow(n int64) error {
	return fmt.Errorf("%w: %d bytes past %d", ErrOverflow, p.received+n-p.size, p.size)
}

// advance records n more bytes in the file and wakes the hasher.
func (p *Pending) advance(n int64) {
	if n <= 0 {
		return
	}
	p.received += n
	if p.received-p.flushedTo >= writebackStep || p.received == p.size {
		startWriteback(p.f, p.flushedTo, p.received-p.flushedTo)
		p.flushedTo = p.received
	}
	p.written.Store(p.received)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// hashLoop hashes the file as it grows, reading it back from the page
// cache, until stop is closed and everything written is hashed.
func (p *Pending) hashLoop() {
	defer close(p.hashed)
	h := sha256.New()
	buf := make([]byte, hashChunk)
	var off int64
	catchUp := func() bool {
		for w := p.written.Load(); off < w; w = p.written.Load() {
			if p.abandon.Load() {
				return false
			}
			n, err := p.f.ReadAt(buf[:min(w-off, int64(len(buf)))], off)
			h.Write(buf[:n])
			off += int64(n)
			if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
				p.herr = fmt.Errorf("uploads: hashing: %w", err)
				return false
			}
		}
		return true
	}
	for {
		if !catchUp() {
			return
		}
		select {
		case <-p.wake:
		case <-p.stop:
			if catchUp() {
				p.sum = h.Sum(nil)
			}
			return
		}
	}
}

// finish tells the hasher no more data will come and waits for it.
func (p *Pending) finish() {
	if !p.stopped {
		p.stopped = true
		close(p.stop)
	}
	<-p.hashed
}

// Commit verifies the size and checksum, fsyncs the data and renames it to
// its final path. On any error the temp file is removed.
func (p *Pending) Commit() (Result, error) {
	if !p.Complete() {
		p.Abort()
		return Result{}, fmt.Errorf("%w: %d of %d bytes", ErrIncomplete, p.received, p.size)
	}
	p.finish()
	if p.herr != nil {
		p.Abort()
		return Result{}, p.herr
	}
	if p.want != nil && !bytes.Equal(p.sum, p.want) {
		p.Abort()
		return Result{}, fmt.Errorf("%w: got %x", ErrChecksum, p.sum)
	}
	tmp := p.f.Name()
	err := p.f.Sync()
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	p.done = true
	final := p.store.Path(p.id, p.name)
	if err == nil {
		err = os.Mkdir(filepath.Dir(final), 0o700)
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err == nil {
		err = fsutil.SyncDir(filepath.Dir(final))
	}
	if err == nil {
		err = fsutil.SyncDir(p.store.dir)
	}
	if err != nil {
		os.Remove(tmp)
		os.RemoveAll(filepath.Dir(final))
		p.store.release(p.reserved, false)
		return Result{}, fmt.Errorf("uploads: committing: %w", err)
	}
	// The file is stored: its booked bytes, all of them, count as used.
	p.store.release(p.reserved, true)
	return Result{ID: p.id, Name: p.name, Path: final, Size: p.size, SHA256: hex.EncodeToString(p.sum)}, nil
}

// Abort discards the upload. It is safe to call more than once and after
// Commit.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.abandon.Store(true)
	p.finish()
	p.f.Close()
	os.Remove(p.f.Name())
	p.store.release(p.reserved, false)
}

// Result describes a committed upload.
type Result struct {
	ID     string
	Name   string
	Path   string
	Size   int64
	SHA256 string
}
