package uploads

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

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

// tmpDir is the subdirectory holding uploads in progress.
const tmpDir = ".tmp"

// Config configures a Store.
type Config struct {
	// Dir is the store's root directory. Required.
	Dir string
	// MaxSize is the largest upload in bytes. Default 0: none is accepted.
	MaxSize int64
	// MaxTotal bounds the bytes of all uploads stored, plus the bytes
	// written so far by uploads in progress: an upload is refused with a
	// *QuotaError at Begin if its declared size does not fit beside
	// those, and any upload as soon as its data would pass the bound.
	// An upload in progress holds only what it wrote, so uploads that
	// stop sending cannot lock others out. Default 0: no bound.
	MaxTotal int64
}

// Store places uploads under a directory.
type Store struct {
	dir      string
	maxSize  int64
	maxTotal int64

	mu       sync.Mutex
	used     int64 // bytes of committed uploads
	reserved int64 // bytes written by uploads in progress
}

// NewStore returns a Store rooted at dir that refuses files larger than
// maxSize bytes, without a total quota (Open with a Config sets one).
func NewStore(dir string, maxSize int64) (*Store, error) {
	return Open(Config{Dir: dir, MaxSize: maxSize})
}

// Open returns a Store as cfg describes. It creates the directory,
// removes temp files left by a previous run and adds up the uploads
// stored, for the quota.
func Open(cfg Config) (*Store, error) {
	dir := cfg.Dir
	tmp := filepath.Join(dir, tmpDir)
	if err := os.RemoveAll(tmp); err != nil {
		return nil, fmt.Errorf("uploads: clearing temp dir: %w", err)
	}
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	used, err := dirSize(dir)
	if err != nil {
		return nil, fmt.Errorf("uploads: adding up stored uploads: %w", err)
	}
	return &Store{dir: dir, maxSize: cfg.MaxSize, maxTotal: cfg.MaxTotal, used: used}, nil
}

// Dir returns the store's root directory.
func (s *Store) Dir() string { return s.dir }

// MaxSize returns the largest accepted upload in bytes.
func (s *Store) MaxSize() int64 { return s.maxSize }

// CheckSize refuses a declared size that no upload may have: negative
// (ErrBadSize) or past the limit of one upload (ErrTooLarge). Callers
// with quotas of their own check it first, so a file too large for any
// quota is told so, not that a quota is full.
func (s *Store) CheckSize(size int64) error {
	if size < 0 {
		return fmt.Errorf("%w: %d", ErrBadSize, size)
	}
	if size > s.maxSize {
		return &SizeError{Size: size, Limit: s.maxSize}
	}
	return nil
}

// Begin validates an upload's metadata and opens its temp file. Nothing is
// created when validation fails; a size that does not fit beside the
// uploads stored and in progress is refused with a *QuotaError. The
// size is not booked: Write books the data as it arrives. sum, if not
// empty, is the expected SHA-256 in hex.
func (s *Store) Begin(name string, size int64, sum string) (*Pending, error) {
	if err := s.CheckSize(size); err != nil {
		return nil, err
	}
	clean, want, err := prepare(name, sum)
	if err != nil {
		return nil, err
	}
	if err := s.fits(size); err != nil {
		return nil, err
	}
	return s.begin(clean, size, want)
}

// prepare sanitises an upload's name and decodes its expected SHA-256.
func prepare(name, sum string) (clean string, want []byte, err error) {
	clean, err = SanitizeName(name)
	if err != nil {
		return "", nil, err
	}
	if sum != "" {
		want, err = hex.DecodeString(strings.ToLower(sum))
		if err != nil || len(want) != sha256.Size {
			return "", nil, fmt.Errorf("%w: %q", ErrBadChecksum, sum)
		}
	}
	return clean, want, nil
}

// begin opens the temp file.
func (s *Store) begin(clean string, size int64, want []byte) (*Pending, error) {
	id := uuid.NewString()
	f, err := os.OpenFile(filepath.Join(s.dir, tmpDir, id+".part"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) // read back by the hasher
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	return newPending(s, id, clean, size, want, f), nil
}

// BeginStream opens an upload whose size is not known in advance, as in
// an HTTP multipart body: it accepts up to the store's limit, and Write
// fails with ErrTooLarge past it, or with a *QuotaError once the data
// would pass the total quota. End fixes the size once the data is all
// there; Commit then works as for Begin.
func (s *Store) BeginStream(name, sum string) (*Pending, error) {
	clean, want, err := prepare(name, sum)
	if err != nil {
		return nil, err
	}
	p, err := s.begin(clean, s.maxSize, want)
	if err != nil {
		return nil, err
	}
	p.open = true
	return p, nil
}

// Path returns where the upload with this id and sanitised name lives.
func (s *Store) Path(id, name string) string { return filepath.Join(s.dir, id, name) }

// Remove deletes a committed upload's directory.
func (s *Store) Remove(id string) error {
	if uuid.Validate(id) != nil {
		return fmt.Errorf("uploads: bad file id %q", id)
	}
	dir := filepath.Join(s.dir, id)
	n, _ := dirSize(dir) // what cannot be read is not counted
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("uploads: %w", err)
	}
	s.mu.Lock()
	s.used = max(0, s.used-n)
	s.mu.Unlock()
	return nil
}
