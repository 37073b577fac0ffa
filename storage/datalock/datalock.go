package datalock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrHeld is matched (errors.Is) when another process holds the lock.
var ErrHeld = errors.New("datalock: data directory in use")

// FileName is the lock file's name inside the data directory.
const FileName = ".lock"

// HeldError refuses a data directory another daemon holds.
type HeldError struct {
	// Dir is the data directory.
	Dir string
	// PID is the holder's process id as it wrote it into the lock file,
	// 0 if unknown.
	PID int
}

func (e *HeldError) Error() string {
	holder := "another opsassistd"
	if e.PID > 0 {
		holder = fmt.Sprintf("another opsassistd (pid %d)", e.PID)
	}
	return fmt.Sprintf("datalock: data directory %s is in use: %s holds %s; stop it, or give this daemon a different data directory",
		e.Dir, holder, filepath.Join(e.Dir, FileName))
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Lock is a held data directory lock.
type Lock struct {
	f   *os.File
	dir string // the data directory, where Publish records
}

// Acquire creates dir if needed and takes an exclusive, non-blocking lock
// on dir/.lock, writing this process's id into it. If another process
// (or another Acquire in this one) holds it, Acquire fails at once with a
// *HeldError naming dir. The lock lasts until Release or the process
// ends, however it ends: the kernel drops it with the file descriptor.
func Acquire(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("datalock: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("datalock: %w", err)
	}
	if err := lock(f); err != nil {
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, &HeldError{Dir: dir, PID: holder(path)}
		}
		return nil, fmt.Errorf("datalock: locking %s: %w", path, err)
	}
	// The pid is for the message a second daemon prints; the lock is
	// the flock, not the file's content.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f, dir: dir}, nil
}

// Release removes the record Publish wrote, then drops the lock (in that
// order: the next holder's record is never removed). The lock file
// stays: removing it would let a daemon that opened it before the
// removal lock a file nobody else sees. Release is safe to call more
// than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	rerr := os.Remove(filepath.Join(l.dir, RecordName))
	if errors.Is(rerr, os.ErrNotExist) {
		rerr = nil
	}
	f.Truncate(0)
	if err := f.Close(); err != nil { // closing drops the flock
		return fmt.Errorf("datalock: %w", err)
	}
	if rerr != nil {
		return fmt.Errorf("datalock: removing the record: %w", rerr)
	}
	return nil
}

// holder reads the pid the holder wrote, 0 if none.
func holder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
