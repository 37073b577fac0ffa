package datalock

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	f     *os.File
	dir   string // the data directory, where Publish records
	nonce string // this holding's, in the lock file and the record
}

// Acquire creates dir if needed and takes an exclusive, non-blocking lock
// on dir/.lock, writing into it this process's id and a random nonce
// that only this holding has (Publish puts it in the record too, and
// ReadRecord requires the two to match: a record a previous holder left
// is never taken for this one's, even under the same pid). A record
// already there is a previous holder's (one killed without its
// shutdown) and is removed. If another process (or another Acquire in
// this one) holds the lock, Acquire fails at once with a *HeldError
// naming dir. The lock lasts until Release or the process ends, however
// it ends: the kernel drops it with the file descriptor.
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
	l := &Lock{f: f, dir: dir}
	var n [16]byte
	if _, err := rand.Read(n[:]); err != nil {
		l.drop()
		return nil, fmt.Errorf("datalock: %w", err)
	}
	l.nonce = hex.EncodeToString(n[:])
	// The pid is for the message a second daemon prints, the nonce ties
	// the record to this holding; the lock is the flock, not the file's
	// content.
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+" "+l.nonce+"\n"), 0)
	}
	if err == nil {
		err = l.Unpublish() // a previous holder's
	}
	if err != nil {
		l.drop()
		return nil, fmt.Errorf("datalock: %s: %w", path, err)
	}
	return l, nil
}

// drop empties the lock file and drops the lock, the record untouched.
func (l *Lock) drop() error {
	f := l.f
	l.f = nil
	f.Truncate(0)
	return f.Close() // closing drops the flock
}

// Unpublish removes the record Publish wrote (or a previous holder
// left), so local clients stop finding this daemon: a daemon calls it
// first thing in its shutdown, before any listener closes, so that no
// client is sent to an address it no longer owns. A missing record is
// no error. The lock stays held.
func (l *Lock) Unpublish() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(filepath.Join(l.dir, RecordName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("datalock: removing the record: %w", err)
	}
	return nil
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
	rerr := l.Unpublish()
	if err := l.drop(); err != nil {
		return fmt.Errorf("datalock: %w", err)
	}
	return rerr
}

// maxLockFile bounds the lock file a reader reads (a pid and a nonce).
const maxLockFile = 256

// holderOf reads the pid and the nonce the holder wrote into the lock
// file at path: 0 and "" if none (a nonce is missing from the lock file
// of a daemon that predates it).
func holderOf(path string) (pid int, nonce string) {
	f, err := os.Open(path)
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLockFile))
	if err != nil {
		return 0, ""
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, ""
	}
	pid, err = strconv.Atoi(fields[0])
	if err != nil || pid <= 0 {
		return 0, ""
	}
	if len(fields) > 1 {
		nonce = fields[1]
	}
	return pid, nonce
}

// holder reads the pid the holder wrote, 0 if none.
func holder(path string) int {
	pid, _ := holderOf(path)
	return pid
}
