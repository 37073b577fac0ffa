// Package partfile writes a download to NAME.part and moves it to NAME
// only once its SHA-256 matched: bytes land at any offset and in any
// order, the ranges on disk are recorded in NAME.part.rdt so an
// interrupted download resumes, and the final name appears whole or not
// at all (fsync, then rename, then the directory's fsync). The RDT client
// and the CLI's NPLT fallback both write their downloads through it.
package partfile

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"opsassist/internal/rangeset"
)

// Suffix is appended to the destination path while downloading.
const Suffix = ".part"

// RecordSuffix is appended to NAME.part to name the record of received
// ranges that makes a download resumable.
const RecordSuffix = ".rdt"

// hashChunk is the least a contiguous prefix grows by before the bytes
// written out of order are read back into the hash.
const hashChunk = 1 << 20

// Errors returned by Commit.
var (
	// ErrChecksum means the bytes received do not have the SHA-256 they
	// must have. The partial file and its record are deleted, and the
	// destination is untouched.
	ErrChecksum = errors.New("partfile: sha256 mismatch")
	// ErrIncomplete means Commit was called before every byte of the
	// file's size was written (or before the size was set).
	ErrIncomplete = errors.New("partfile: file incomplete")
)

// ID names what a partial file holds: the download token it is fetched
// with and, if known, the file's SHA-256 in hex.
type ID struct {
	Token  string
	SHA256 string
}

// File is one download in progress: NAME.part, open for writing, with
// the ranges written, their hash so far and the record that makes them
// resumable. It is not safe for concurrent use.
type File struct {
	path, part, recPath string
	f                   *os.File
	rec                 record
	have                rangeset.Set
	hasher              hash.Hash
	hashed              uint64 // the prefix fed to hasher
	saved               uint64 // bytes held when the record was last saved
	closed              bool
	finished            bool // committed or discarded: Save does nothing
}

// Create starts NAME.part for path afresh: any partial file is truncated
// and its record removed.
func Create(path string, id ID) (*File, error) {
	return open(path, id, false, nil)
}

// Open resumes NAME.part for path if its record belongs to id — the same
// token, or the same SHA-256 when id names one, and never a record of
// another SHA-256 — and the partial file is there; otherwise it starts
// afresh as Create does. An unreadable record is logged and ignored.
func Open(path string, id ID, log *zap.Logger) (*File, error) {
	if log == nil {
		log = zap.NewNop()
	}
	return open(path, id, true, log)
}

func open(path string, id ID, resume bool, log *zap.Logger) (*File, error) {
	p := &File{path: path, part: path + Suffix, recPath: path + Suffix + RecordSuffix, hasher: sha256.New()}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	var rec *record
	if resume {
		var err error
		if rec, err = loadRecord(p.recPath); err != nil {
			log.Debug("ignoring unreadable resume record", zap.Error(err))
			rec = nil
		}
		if rec != nil && (!rec.belongsTo(id) || !exists(p.part)) {
			rec = nil
		}
	}
	flags := os.O_RDWR | os.O_CREATE
	if rec == nil {
		// A record left from before would describe bytes no longer there.
		if err := os.Remove(p.recPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		flags |= os.O_TRUNC
		rec = &record{Token: id.Token, SHA256: id.SHA256, Size: -1}
	}
	f, err := os.OpenFile(p.part, flags, 0o600)
	if err != nil {
		return nil, err
	}
	p.f, p.rec = f, *rec
	for _, x := range rec.Ranges {
		p.have.Add(x[0], x[1])
	}
	p.saved = p.have.Total()
	return p, nil
}

// Ranges returns the byte ranges held, ascending: those resumed from the
// record and those written since.
func (p *File) Ranges() []rangeset.Range { return p.have.Ranges() }

// Unsaved returns how many bytes were written since the record was last
// saved (or since Open resumed it).
func (p *File) Unsaved() uint64 { return p.have.Total() - p.saved }

// Size returns the file's size, -1 until it is known.
func (p *File) Size() int64 { return p.rec.Size }

// SetSize records the file's size.
func (p *File) SetSize(n int64) { p.rec.Size = n }

// SHA256 returns the SHA-256 (hex) the file must have, as far as this
// partial file knows: the one it was opened for, the one its record
// named, or the one SetSHA256 set; "" if none.
func (p *File) SHA256() string { return p.rec.SHA256 }

// SetSHA256 records the SHA-256 (hex) the file must have, so a resumed
// download keeps expecting it.
func (p *File) SetSHA256(sum string) { p.rec.SHA256 = sum }

// WriteAt writes b at offset off and records the range as held. Bytes
// that extend the contiguous prefix are hashed as they pass; bytes that
// arrived earlier out of order are read back into the hash once the
// prefix grew by at least a chunk past them (or at Commit).
func (p *File) WriteAt(b []byte, off uint64) error {
	if _, err := p.f.WriteAt(b, int64(off)); err != nil {
		return fmt.Errorf("writing %s: %w", p.part, err)
	}
	end := off + uint64(len(b))
	p.have.Add(off, end)
	if off <= p.hashed && end > p.hashed {
		p.hasher.Write(b[p.hashed-off:])
		p.hashed = end
	}
	return p.hashPrefix(false)
}

// hashPrefix feeds the contiguous prefix held beyond what was hashed to
// the SHA-256, in chunks of at least hashChunk unless all is true.
func (p *File) hashPrefix(all bool) error {
	end := p.have.Prefix()
	if p.rec.Size >= 0 {
		end = min(end, uint64(p.rec.Size))
	}
	if end <= p.hashed || !all && end-p.hashed < hashChunk {
		return nil
	}
	if _, err := io.Copy(p.hasher, io.NewSectionReader(p.f, int64(p.hashed), int64(end-p.hashed))); err != nil {
		return fmt.Errorf("reading back %s: %w", p.part, err)
	}
	p.hashed = end
	return nil
}

// Save flushes NAME.part to disk and then records its ranges, size and
// identity in NAME.part.rdt (written to a temporary file, fsynced and
// renamed over the old record). It does nothing when no byte arrived
// since the last save and the record exists, nor after Discard or a
// successful Commit. It is Checkpoint followed by SaveCheckpoint.
func (p *File) Save() error {
	saved := p.saved
	c, ok := p.Checkpoint()
	if !ok {
		return nil
	}
	if err := p.SaveCheckpoint(c); err != nil {
		p.saved = saved // not saved: the next Save tries again
		return err
	}
	return nil
}

// A Checkpoint is the record of the ranges held at one moment, which
// SaveCheckpoint makes durable.
type Checkpoint struct {
	rec record
}

// Checkpoint returns the record of the ranges held now, for
// SaveCheckpoint; ok is false when Save would do nothing (no byte
// arrived since the last checkpoint and the record exists, or after
// Discard or a successful Commit). It counts those bytes as saved
// (Unsaved) at once: a caller whose SaveCheckpoint then fails cannot
// rely on Unsaved or on a later Save noticing (rdt's part-file writer
// ends the download on the error; Save undoes the count itself).
func (p *File) Checkpoint() (c Checkpoint, ok bool) {
	if p.finished {
		return Checkpoint{}, false
	}
	have := p.have.Total()
	if have == p.saved && exists(p.recPath) {
		return Checkpoint{}, false
	}
	c.rec = p.rec
	c.rec.Ranges = make([][2]uint64, 0, len(p.have.Ranges()))
	for _, x := range p.have.Ranges() {
		c.rec.Ranges = append(c.rec.Ranges, [2]uint64{x.Start, x.End})
	}
	p.saved = have
	return c, true
}

// SaveCheckpoint makes c durable: it flushes NAME.part to disk — every
// byte c records was written before c was taken — and then writes c to
// NAME.part.rdt (temporary file, fsync, rename). Unlike the File's
// other methods it may run on another goroutine while WriteAt goes on,
// so the fsync does not hold up the writes; it must not run
// concurrently with itself, Save, Commit, Discard or Close.
func (p *File) SaveCheckpoint(c Checkpoint) error {
	if err := p.f.Sync(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("syncing %s: %w", p.part, err)
	}
	if err := c.rec.save(p.recPath); err != nil {
		return fmt.Errorf("saving resume record: %w", err)
	}
	return nil
}

// Commit finishes the download: every byte of the size set must be
// held (else ErrIncomplete), and their SHA-256 must be want (else the
// partial file and its record are deleted and ErrChecksum returned).
// A Commit that fails otherwise leaves both for Save and a later Open.
// Then NAME.part is cut to the size, given the mode a new file gets in
// its directory (0666 less the umask; it was 0600 while it arrived),
// fsynced, closed and renamed to NAME, the record removed and the directory fsynced, so NAME holds the
// whole verified file or does not appear.
func (p *File) Commit(want [32]byte) error {
	if p.rec.Size < 0 || p.have.Prefix() < uint64(p.rec.Size) {
		return fmt.Errorf("%w: %d of %d bytes", ErrIncomplete, p.have.Prefix(), p.rec.Size)
	}
	if err := p.hashPrefix(true); err != nil {
		return err
	}
	if [32]byte(p.hasher.Sum(nil)) != want {
		p.Discard()
		return ErrChecksum
	}
	if err := p.f.Truncate(p.rec.Size); err != nil {
		return err
	}
	// NAME.part stays 0600 while incomplete; NAME gets what a new file
	// gets here (0666 less the umask), as curl's and wget's do.
	mode, err := finalMode(p.part)
	if err != nil {
		return fmt.Errorf("finding the file mode: %w", err)
	}
	if err := p.f.Chmod(mode); err != nil {
		return fmt.Errorf("setting the file mode: %w", err)
	}
	if err := p.f.Sync(); err != nil {
		return err
	}
	p.closed = true
	if err := p.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(p.part, p.path); err != nil {
		return err
	}
	p.finished = true
	os.Remove(p.recPath)
	if dir, err := os.Open(filepath.Dir(p.path)); err == nil {
		dir.Sync()
		dir.Close()
	}
	return nil
}

// Discard deletes the partial file and its record: their bytes cannot be
// trusted (a checksum mismatch, another file). Save does nothing after
// it.
func (p *File) Discard() {
	p.finished = true
	p.Close()
	os.Remove(p.part)
	os.Remove(p.recPath)
}

// Close closes NAME.part and leaves it, and its record as last saved, for
// a later Open to resume. It is idempotent.
func (p *File) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	return p.f.Close()
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
