package uploads

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
)

// Errors returned for refused uploads.
var (
	// ErrTooLarge means the declared size exceeds the store's limit.
	ErrTooLarge = errors.New("uploads: file too large")
	// ErrBadSize means the declared size is negative.
	ErrBadSize = errors.New("uploads: bad size")
	// ErrOverflow means more bytes arrived than were declared.
	ErrOverflow = errors.New("uploads: more data than declared")
	// ErrIncomplete means Commit was called before all bytes arrived.
	ErrIncomplete = errors.New("uploads: upload incomplete")
	// ErrChecksum means the data does not match the declared SHA-256.
	ErrChecksum = errors.New("uploads: sha256 mismatch")
	// ErrBadChecksum means the declared SHA-256 is not 64 hex digits.
	ErrBadChecksum = errors.New("uploads: malformed sha256")
)

// chunkSize is the size of the buffers queued for writing.
const chunkSize = 256 << 10

// tmpDir is the subdirectory holding uploads in progress.
const tmpDir = ".tmp"

// Store places uploads under a directory.
type Store struct {
	dir     string
	maxSize int64
}

// NewStore returns a Store rooted at dir that refuses files larger than
// maxSize bytes. It creates dir and removes temp files left by a previous
// run.
func NewStore(dir string, maxSize int64) (*Store, error) {
	tmp := filepath.Join(dir, tmpDir)
	if err := os.RemoveAll(tmp); err != nil {
		return nil, fmt.Errorf("uploads: clearing temp dir: %w", err)
	}
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	return &Store{dir: dir, maxSize: maxSize}, nil
}

// Dir returns the store's root directory.
func (s *Store) Dir() string { return s.dir }

// MaxSize returns the largest accepted upload in bytes.
func (s *Store) MaxSize() int64 { return s.maxSize }

// Begin validates an upload's metadata and opens its temp file. Nothing is
// created when validation fails. sum, if not empty, is the expected
// SHA-256 in hex.
func (s *Store) Begin(name string, size int64, sum string) (*Pending, error) {
	if size < 0 {
		return nil, fmt.Errorf("%w: %d", ErrBadSize, size)
	}
	if size > s.maxSize {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, size, s.maxSize)
	}
	clean, err := SanitizeName(name)
	if err != nil {
		return nil, err
	}
	var want []byte
	if sum != "" {
		want, err = hex.DecodeString(strings.ToLower(sum))
		if err != nil || len(want) != sha256.Size {
			return nil, fmt.Errorf("%w: %q", ErrBadChecksum, sum)
		}
	}
	id := uuid.NewString()
	f, err := os.OpenFile(filepath.Join(s.dir, tmpDir, id+".part"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	p := &Pending{store: s, id: id, name: clean, size: size, want: want, f: f, h: sha256.New(),
		work: make(chan []byte, pipelineDepth), free: make(chan []byte, pipelineDepth), flushed: make(chan struct{})}
	for range pipelineDepth {
		p.free <- nil // buffers are allocated on first use
	}
	go p.flushLoop(p.work)
	return p, nil
}

// Path returns where the upload with this id and sanitised name lives.
func (s *Store) Path(id, name string) string { return filepath.Join(s.dir, id, name) }

// Remove deletes a committed upload's directory.
func (s *Store) Remove(id string) error {
	if uuid.Validate(id) != nil {
		return fmt.Errorf("uploads: bad file id %q", id)
	}
	if err := os.RemoveAll(filepath.Join(s.dir, id)); err != nil {
		return fmt.Errorf("uploads: %w", err)
	}
	return nil
}

// pipelineDepth is how many chunks may wait to be written and hashed.
const pipelineDepth = 4

// Pending is an upload in progress. Its methods are for one goroutine; two
// goroutines of its own write and hash the data, so receiving, storing
// and hashing overlap.
type Pending struct {
	store    *Store
	id       string
	name     string
	size     int64
	received int64
	want     []byte
	f        *os.File
	done     bool

	cur     []byte        // chunk being filled
	stopped bool          // work is closed
	work    chan []byte   // chunks for flushLoop
	free    chan []byte   // buffers flushLoop is done with
	flushed chan struct{} // closed when flushLoop exits
	h       hash.Hash     // owned by flushLoop until flushed closes
	werr    error         // first write error; read after flushed closes
	failed  atomic.Bool   // set with werr, readable at any time
}

// flushLoop writes chunks to the temp file in order until work is
// closed, handing each to hashLoop, so writing and hashing run side by
// side.
func (p *Pending) flushLoop(work <-chan []byte) {
	hashed := make(chan []byte, pipelineDepth)
	hashDone := make(chan struct{})
	go p.hashLoop(hashed, hashDone)
	for b := range work {
		if p.werr == nil {
			if _, err := p.f.Write(b); err != nil {
				p.werr = err
				p.failed.Store(true)
			}
		}
		hashed <- b
	}
	close(hashed)
	<-hashDone
	close(p.flushed)
}

// hashLoop hashes chunks in order and recycles their buffers.
func (p *Pending) hashLoop(chunks <-chan []byte, done chan<- struct{}) {
	defer close(done)
	for b := range chunks {
		p.h.Write(b)
		p.free <- b[:0]
	}
}

// stopFlush waits for queued chunks to be written and returns the first
// write error.
func (p *Pending) stopFlush() error {
	if !p.stopped {
		p.stopped = true
		close(p.work)
		<-p.flushed
	}
	return p.werr
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

// Write appends upload data. It returns ErrOverflow, writing nothing, if b
// would take the upload past its declared size.
func (p *Pending) Write(b []byte) (int, error) {
	n := len(b)
	if int64(len(b)) > p.size-p.received {
		return 0, fmt.Errorf("%w: %d bytes past %d", ErrOverflow, p.received+int64(len(b))-p.size, p.size)
	}
	if p.failed.Load() {
		return 0, fmt.Errorf("uploads: writing: %w", p.stopFlush())
	}
	for len(b) > 0 {
		if p.cur == nil {
			p.cur = (<-p.free)[:0]
			if cap(p.cur) < chunkSize {
				p.cur = make([]byte, 0, chunkSize)
			}
		}
		k := min(len(b), chunkSize-len(p.cur))
		p.cur = append(p.cur, b[:k]...)
		b = b[k:]
		if len(p.cur) == chunkSize {
			p.queue()
		}
	}
	p.received += int64(n)
	if p.Complete() {
		p.queue()
	}
	return n, nil
}

// queue hands the chunk being filled to the flush goroutine.
func (p *Pending) queue() {
	if len(p.cur) > 0 {
		p.work <- p.cur
	}
	p.cur = nil
}

// Result describes a committed upload.
type Result struct {
	ID     string
	Name   string
	Path   string
	Size   int64
	SHA256 string
}

// Commit verifies the size and checksum, fsyncs the data and renames it to
// its final path. On any error the temp file is removed.
func (p *Pending) Commit() (Result, error) {
	if !p.Complete() {
		p.Abort()
		return Result{}, fmt.Errorf("%w: %d of %d bytes", ErrIncomplete, p.received, p.size)
	}
	if err := p.stopFlush(); err != nil {
		p.Abort()
		return Result{}, fmt.Errorf("uploads: writing: %w", err)
	}
	sum := p.h.Sum(nil)
	if p.want != nil && !bytes.Equal(sum, p.want) {
		p.Abort()
		return Result{}, fmt.Errorf("%w: got %x", ErrChecksum, sum)
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
		err = syncDir(filepath.Dir(final))
	}
	if err == nil {
		err = syncDir(p.store.dir)
	}
	if err != nil {
		os.Remove(tmp)
		os.RemoveAll(filepath.Dir(final))
		return Result{}, fmt.Errorf("uploads: committing: %w", err)
	}
	return Result{ID: p.id, Name: p.name, Path: final, Size: p.size, SHA256: hex.EncodeToString(sum)}, nil
}

// Abort discards the upload. It is safe to call more than once and after
// Commit.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.stopFlush()
	p.f.Close()
	os.Remove(p.f.Name())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
