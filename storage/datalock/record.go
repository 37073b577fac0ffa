package datalock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// RecordName is the name, inside the data directory, of the file in
// which the lock holder records where it listens.
const RecordName = "daemon.json"

// maxRecord bounds the record file a reader accepts.
const maxRecord = 64 << 10

// ErrNoRecord is matched (errors.Is) when the data directory's holder
// has recorded no usable addresses: the record is missing, unreadable,
// malformed, or another process's (stale).
var ErrNoRecord = errors.New("datalock: no record of the lock holder's addresses")

// Record is where the daemon holding a data directory listens, as it
// recorded it in <data>/daemon.json once its listeners were bound.
// Addresses are listen addresses: a wildcard host is reached on
// loopback.
type Record struct {
	// PID is the holder's process id; Publish sets it.
	PID int `json:"pid"`
	// Nonce is the holding's random nonce, also in the lock file;
	// Publish sets it, and ReadRecord accepts the record only while the
	// lock file names the same one.
	Nonce string `json:"nonce"`
	// HTTP is the HTTP listener's address (host:port, the actual port).
	HTTP string `json:"http"`
	// TLS reports whether the HTTP and NPLT listeners speak TLS.
	TLS bool `json:"tls"`
	// TLSCertSHA256 is the SHA-256 of the listeners' certificate (DER),
	// 64 hex digits, when TLS is on: a local client trusts exactly it.
	TLSCertSHA256 string `json:"tls_cert_sha256,omitempty"`
	// NPLT is the NPLT listener's address.
	NPLT string `json:"nplt"`
	// RDT is the RDT socket's address.
	RDT string `json:"rdt"`
	// Version is the daemon's version.
	Version string `json:"version"`
}

// RecordError refuses a data directory whose holder's record cannot be
// used; it names the file.
type RecordError struct {
	// Path is the record file.
	Path string
	// Holder is the lock holder's pid as the lock file names it, 0 if
	// unknown.
	Holder int
	// Reason says what is wrong with the record.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

func (e *RecordError) Error() string {
	holder := "the daemon holding the data directory"
	if e.Holder > 0 {
		holder = fmt.Sprintf("the daemon holding the data directory (pid %d)", e.Holder)
	}
	return fmt.Sprintf("datalock: %s: %s; %s has not recorded where it listens (it is still starting, or predates this record): restart it", e.Path, e.Reason, holder)
}

// Unwrap returns the underlying error.
func (e *RecordError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNoRecord) true.
func (e *RecordError) Is(target error) bool { return target == ErrNoRecord }

// Publish records r, with this process's id and the holding's nonce, in
// <dir>/daemon.json for local clients to find: written to a temporary
// file, synced and renamed over the old one, so a reader sees the old
// record or the new, never a part; mode 0600. Unpublish and Release
// remove it.
func (l *Lock) Publish(r Record) error {
	if l == nil || l.f == nil {
		return errors.New("datalock: publish: the lock is not held")
	}
	r.PID, r.Nonce = os.Getpid(), l.nonce
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("datalock: publish: %w", err)
	}
	tmp, err := os.CreateTemp(l.dir, RecordName+".*.tmp") // mode 0600
	if err != nil {
		return fmt.Errorf("datalock: publish: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(l.dir, RecordName))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("datalock: publish: %w", err)
	}
	return nil
}

// ReadRecord returns the record of the daemon holding dir, whose pid the
// lock file names (HeldError.PID). A missing, unreadable, oversized or
// malformed record, or one another holding wrote (a daemon killed
// without its shutdown leaves its record behind: its pid is not the
// holder's, or, the pid reused, its nonce is not the one in the lock
// file), is a *RecordError naming the file: the caller must not guess
// an address instead.
func ReadRecord(dir string, holder int) (Record, error) {
	path := filepath.Join(dir, RecordName)
	fail := func(reason string, err error) (Record, error) {
		return Record{}, &RecordError{Path: path, Holder: holder, Reason: reason, Err: err}
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fail("no such file", err)
	}
	if err != nil {
		return fail("cannot be read", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return fail("cannot be read", err)
	}
	if len(b) > maxRecord {
		return fail(fmt.Sprintf("larger than %d bytes", maxRecord), nil)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return fail("malformed", err)
	}
	switch {
	case holder <= 0:
		return fail(fmt.Sprintf("names pid %d, and the lock file names no holder", r.PID), nil)
	case r.PID != holder:
		return fail(fmt.Sprintf("is stale: it names pid %d, not the lock holder", r.PID), nil)
	}
	pid, nonce := holderOf(filepath.Join(dir, FileName))
	switch {
	case pid != holder:
		return fail(fmt.Sprintf("is stale: the lock file now names pid %d, not %d (the holder has changed)", pid, holder), nil)
	case nonce == "" || r.Nonce != nonce:
		return fail("is stale: its nonce is not the lock holder's (an earlier daemon with the same pid left it)", nil)
	case r.HTTP == "":
		return fail("names no http address", nil)
	}
	return r, nil
}
