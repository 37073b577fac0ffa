package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/tools"
)

// Options configures a Log. The zero value is usable.
type Options struct {
	// Now is the clock for records without a time and for repair
	// records. Default time.Now.
	Now func() time.Time
	// Logger receives what Open found (the directory, the last record,
	// HEAD) and the repair it made. Default zap.NewNop().
	Logger *zap.Logger

	// noSync skips every fsync: for the fuzz test only, whose
	// minimisation runs thousands of inputs.
	noSync bool
}

// file is the part of *os.File a Log writes through (a test injects
// failures).
type file interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Stat() (fs.FileInfo, error)
	Close() error
}

// Log is an open audit log. Record is safe for concurrent use: records
// are written one at a time, in sequence order.
type Log struct {
	dir      string
	now      func() time.Time
	log      *zap.Logger
	openFile func(name string, flag int, perm fs.FileMode) (file, error)
	noSync   bool

	mu     sync.Mutex
	closed bool
	// head is HEAD as Open found it (hasHead: there was one), for
	// Open's report.
	head    head
	hasHead bool
	// dirInfo is dir as Open found (or made) it; gone, once set (an
	// ErrRemoved), is returned by every Record.
	dirInfo fs.FileInfo
	gone    error
	// seq and hash are the last record's sequence number and line hash.
	seq  int64
	hash string
	// name is the file records go to (never an earlier day than the
	// last file); f is it, open for appending, or nil.
	name string
	f    file
	// size is the length of name up to the last complete record; dirty
	// is set when a failed write may have left bytes after it.
	size  int64
	dirty bool
}

var _ tools.Recorder = (*Log)(nil)

// Open opens the audit log in dir, creating dir (0700) if needed. It
// finds the last complete record, checks that it links to the one
// before it and agrees with HEAD, and then repairs a last line torn by a
// crash: the torn bytes are cut away and a record {"event":
// "recovered", "truncated_bytes": N} is appended. A log that ends before
// the record HEAD names (a record cut short while HEAD names it is not
// a crash: records are fsynced before HEAD), or whose last records do
// not link, is not opened and not changed: the error is a *BrokenError,
// and the log should be verified and moved aside (records written after
// it would hide the damage).
func Open(dir string, o Options) (*Log, error) {
	l := &Log{dir: dir, now: o.Now, log: o.Logger, hash: zeroHash, openFile: openOSFile, noSync: o.noSync}
	if l.now == nil {
		l.now = time.Now
	}
	if l.log == nil {
		l.log = zap.NewNop()
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, fmt.Errorf("audit: creating %s: %w", dir, err)
	}
	di, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	l.dirInfo = di
	torn, err := l.loadTail()
	if err != nil {
		return nil, err
	}
	if torn > 0 {
		l.log.Warn("audit log repaired: cut a line torn by a crash", zap.String("file", l.name), zap.Int64("truncated_bytes", torn))
		line, err := encodeRecovered(l.seq+1, l.hash, l.now(), torn)
		if err != nil {
			return nil, err
		}
		if err := l.append(line, l.now()); err != nil {
			return nil, errors.Join(err, l.Close())
		}
		l.head, l.hasHead = head{Seq: l.seq, Hash: l.hash, File: l.name}, true
	}
	l.report()
	return l, nil
}

// report logs what Open found: the directory, the last record and HEAD
// (an operator may note HEAD's hash elsewhere, to check the log against
// it later), and a warning for records without HEAD.
func (l *Log) report() {
	fields := []zap.Field{zap.String("dir", l.dir), zap.Int64("last_seq", l.seq)}
	if l.seq > 0 {
		fields = append(fields, zap.String("last_hash", l.hash))
	}
	if l.hasHead {
		fields = append(fields, zap.Int64("head_seq", l.head.Seq), zap.String("head_hash", l.head.Hash))
	}
	l.log.Info("audit log opened", fields...)
	if l.seq > 0 && !l.hasHead {
		l.log.Warn("audit log has records but no HEAD: records deleted from its end cannot be detected until HEAD is written with the next record", zap.String("dir", l.dir), zap.Int64("last_seq", l.seq))
	}
}

func openOSFile(name string, flag int, perm fs.FileMode) (file, error) {
	return os.OpenFile(name, flag, perm)
}

// Record appends r to the log and fsyncs it, then rewrites HEAD. The
// record's time is r.Time (the call's start; now when zero), and its
// file that time's UTC day — or the last file, when that is later (a
// record never goes to an earlier file than the one before it).
//
// An error means the record was not kept — the next Record starts again
// from the last record kept — except ErrHeadNotWritten: the record was
// kept, HEAD stays behind the log, and the next Record tries HEAD again.
// Before each record Record checks that the audit directory and the
// open file are still those at their paths; when one was removed or
// replaced it returns ErrRemoved, now and until the log is opened again.
// Either error makes the Registry pause tool calls (fail closed).
func (l *Log) Record(r tools.CallRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	t := r.Time
	if t.IsZero() {
		t = l.now()
	}
	line, err := encodeCall(r, l.seq+1, l.hash, t)
	if err != nil {
		return err
	}
	return l.append(line, t)
}

// append writes one encoded line (newline included) as record l.seq+1.
// l.mu is held (or l is not shared yet).
func (l *Log) append(line []byte, t time.Time) error {
	if l.gone != nil {
		return l.gone
	}
	if err := l.checkPlace(); err != nil {
		return err
	}
	name := fileName(t)
	if name < l.name {
		name = l.name
	}
	if err := l.use(name); err != nil {
		return err
	}
	seq := l.seq + 1
	if l.dirty {
		if err := l.f.Truncate(l.size); err != nil {
			return fmt.Errorf("audit: record %d: cutting a partial record: %w", seq, err)
		}
		l.dirty = false
	}
	_, err := l.f.Write(line)
	if err == nil && !l.noSync {
		err = l.f.Sync()
	}
	if err != nil {
		l.dirty = true
		if terr := l.f.Truncate(l.size); terr == nil {
			l.dirty = false
		}
		return fmt.Errorf("audit: writing record %d to %s: %w", seq, l.name, err)
	}
	l.size += int64(len(line))
	l.seq, l.hash = seq, sealedHash(line)
	if err := writeHead(l.dir, head{Seq: l.seq, Hash: l.hash, File: l.name}, !l.noSync); err != nil {
		return fmt.Errorf("%w (record %d kept in %s): %w", ErrHeadNotWritten, l.seq, l.name, err)
	}
	return nil
}

// Check reports whether a record could be written now: the log is open
// and its directory and file are still those at their paths (ErrRemoved
// otherwise, now and until the log is opened again). The Registry asks
// before it runs a call (tools.RecorderChecker), so a call does not run
// when its record could not be kept.
func (l *Log) Check() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return ErrClosed
	case l.gone != nil:
		return l.gone
	}
	return l.checkPlace()
}

// checkPlace checks that the audit directory and the open file are
// still those at their paths. When one is gone or another file stands
// in its place it sets l.gone. l.mu is held.
func (l *Log) checkPlace() error {
	di, err := os.Stat(l.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && !os.SameFile(di, l.dirInfo):
		l.gone = fmt.Errorf("%w: the directory %s is gone or is another directory (removed or replaced while the server ran); records are not written until the server is restarted", ErrRemoved, l.dir)
		return l.gone
	case err != nil:
		return fmt.Errorf("audit: checking %s: %w", l.dir, err)
	}
	if l.f == nil {
		return nil
	}
	path := filepath.Join(l.dir, l.name)
	open, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("audit: checking %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && !os.SameFile(fi, open):
		l.gone = fmt.Errorf("%w: %s is gone or is another file (removed or replaced while the server ran); records are not written until the server is restarted", ErrRemoved, path)
		return l.gone
	case err != nil:
		return fmt.Errorf("audit: checking %s: %w", path, err)
	}
	return nil
}

// use makes name the open file, creating it (and syncing the directory)
// if needed.
func (l *Log) use(name string) error {
	if l.f != nil && name == l.name {
		return nil
	}
	if l.f != nil && l.dirty {
		if err := l.f.Truncate(l.size); err != nil {
			return fmt.Errorf("audit: cutting a partial record from %s: %w", l.name, err)
		}
		l.dirty = false
	}
	path := filepath.Join(l.dir, name)
	_, err := os.Lstat(path)
	created := errors.Is(err, fs.ErrNotExist)
	f, err := l.openFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		return fmt.Errorf("audit: opening %s: %w", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return errors.Join(fmt.Errorf("audit: opening %s: %w", name, err), f.Close())
	}
	if created && !l.noSync {
		if err := syncDir(l.dir); err != nil {
			return errors.Join(fmt.Errorf("audit: syncing %s: %w", l.dir, err), f.Close())
		}
	}
	if l.f != nil {
		if err := l.f.Close(); err != nil {
			l.log.Warn("audit closing log file", zap.String("file", l.name), zap.Error(err))
		}
	}
	l.f, l.name, l.size, l.dirty = f, name, fi.Size(), false
	return nil
}

// Close closes the log; Record fails afterwards. Close is idempotent.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("audit: closing %s: %w", l.name, err)
	}
	return nil
}
