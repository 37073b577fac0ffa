package uploads

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	f, err := os.OpenFile(filepath.Join(s.dir, tmpDir, id+".part"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) // read back by the hasher
	if err != nil {
		return nil, fmt.Errorf("uploads: %w", err)
	}
	return newPending(s, id, clean, size, want, f), nil
}

// BeginStream opens an upload whose size is not known in advance, as in
// an HTTP multipart body: it accepts up to the store's limit, and Write
// fails with ErrTooLarge past it. End fixes the size once the data is all
// there; Commit then works as for Begin.
func (s *Store) BeginStream(name, sum string) (*Pending, error) {
	p, err := s.Begin(name, s.maxSize, sum)
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
	if err := os.RemoveAll(filepath.Join(s.dir, id)); err != nil {
		return fmt.Errorf("uploads: %w", err)
	}
	return nil
}
