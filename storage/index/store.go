package index

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"opsassist/storage/fsutil"
)

// File names in the index directory.
const (
	snapshotName = "snapshot"
	snapshotTemp = "snapshot.tmp"
	logPrefix    = "wal-"
	logSuffix    = ".log"
)

func logName(gen uint64) string { return fmt.Sprintf("%s%016x%s", logPrefix, gen, logSuffix) }

// header returns the header of a file this index writes.
func (x *Index) header(kind byte, gen uint64) header {
	return header{kind: kind, embedder: x.cfg.Embedder.Name(), dim: x.cfg.Embedder.Dim(), gen: gen}
}

// compatible reports whether a file's header was written for this
// index's embedder.
func (x *Index) compatible(h header) bool {
	return h.embedder == x.cfg.Embedder.Name() && h.dim == x.cfg.Embedder.Dim()
}

// errRebuild means the files on disk were built by another embedder.
var errRebuild = errors.New("index: built by another embedder")

// load restores the state from the snapshot and logs, then opens the
// newest log for appending.
func (x *Index) load() error {
	defer x.trim()
	gen, err := x.loadSnapshot()
	if errors.Is(err, errRebuild) {
		return x.rebuild()
	}
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return err // an I/O error: fail rather than lose the index
	}
	if err != nil {
		// A snapshot is renamed into place only once complete and
		// synced; damage here is the disk's. Keep the files for a
		// post-mortem and start empty: owners re-index what is missing.
		x.log.Error("index snapshot corrupt; moved aside, starting empty", zap.Error(err))
		if err := x.moveAside(); err != nil {
			return err
		}
		x.reset()
		gen = 0
	}
	gens, err := x.logGens()
	if err != nil {
		return err
	}
	var replay []uint64
	for _, g := range gens {
		if g >= gen {
			replay = append(replay, g)
		}
	}
	for i, g := range replay {
		last := i == len(replay)-1
		end, err := x.replay(g)
		if errors.Is(err, errRebuild) {
			return x.rebuild()
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			return err
		}
		if err != nil {
			x.log.Warn("index log cut at a torn record", zap.String("log", logName(g)), zap.Int64("offset", end), zap.Error(err))
		}
		if last {
			return x.openLog(g, end)
		}
	}
	return x.createLog(gen)
}

// trim releases the spare capacity the bulk load left in the keyword
// indexes.
func (x *Index) trim() {
	x.mu.RLock()
	defer x.mu.RUnlock()
	for _, p := range x.parts {
		p.bm.Trim()
	}
}

// rebuild discards every file written by another embedder and starts an
// empty index.
func (x *Index) rebuild() error {
	x.log.Warn("index was built by another embedder; starting empty", zap.String("embedder", x.cfg.Embedder.Name()))
	if err := x.discard(); err != nil {
		return err
	}
	x.reset()
	return x.createLog(0)
}

// moveAside renames the snapshot and all logs to *.bad, so they are kept
// but never loaded again.
func (x *Index) moveAside() error {
	gens, err := x.logGens()
	if err != nil {
		return err
	}
	names := []string{snapshotName}
	for _, g := range gens {
		names = append(names, logName(g))
	}
	for _, n := range names {
		p := filepath.Join(x.dir, n)
		if err := os.Rename(p, p+".bad"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("index: %w", err)
		}
	}
	return fsutil.SyncDir(x.dir)
}

// discard removes the snapshot and all logs.
func (x *Index) discard() error {
	gens, err := x.logGens()
	if err != nil {
		return err
	}
	names := []string{snapshotName, snapshotTemp}
	for _, g := range gens {
		names = append(names, logName(g))
	}
	for _, n := range names {
		if err := os.Remove(filepath.Join(x.dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("index: %w", err)
		}
	}
	return fsutil.SyncDir(x.dir)
}

// logGens lists the generations of the logs present, ascending.
func (x *Index) logGens() ([]uint64, error) {
	ents, err := os.ReadDir(x.dir)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var gens []uint64
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, logPrefix) || !strings.HasSuffix(n, logSuffix) {
			continue
		}
		g, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(n, logPrefix), logSuffix), 16, 64)
		if err != nil {
			continue
		}
		gens = append(gens, g)
	}
	slices.Sort(gens)
	return gens, nil
}

// loadSnapshot applies the snapshot, if any, and returns its generation:
// logs of that generation and later hold the changes made after it.
func (x *Index) loadSnapshot() (uint64, error) {
	f, err := os.Open(filepath.Join(x.dir, snapshotName))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("index: %w", err)
	}
	defer f.Close()
	fr := newFrameReader(f)
	h, err := readHeader(fr, kindSnapshot)
	if err != nil {
		return 0, err
	}
	if !x.compatible(h) {
		return 0, errRebuild
	}
	for {
		p, err := fr.next()
		if err == io.EOF {
			// A complete snapshot ends with an empty frame.
			return 0, fmt.Errorf("snapshot: %w: no end marker", ErrCorrupt)
		}
		if err != nil {
			return 0, fmt.Errorf("snapshot: %w", err)
		}
		if len(p) == 0 {
			return h.gen, nil
		}
		if x.abort.Load() {
			return 0, ErrClosed
		}
		if err := x.applyPayload(p); err != nil {
			// The frame's checksum held, so the record is as written: skip
			// just this file (its owner indexes it again).
			x.log.Warn("index snapshot record skipped", zap.Error(err))
		}
	}
}

// readHeader reads the magic and header frame of a file of this kind.
func readHeader(fr *frameReader, kind byte) (header, error) {
	if err := fr.readMagic(); err != nil {
		return header{}, err
	}
	p, err := fr.next()
	if err == io.EOF {
		return header{}, fmt.Errorf("%w: no header", ErrCorrupt)
	}
	if err != nil {
		return header{}, err
	}
	h, err := parseHeader(p)
	if err != nil {
		return header{}, err
	}
	if h.kind != kind {
		return header{}, fmt.Errorf("%w: file kind %q", ErrCorrupt, h.kind)
	}
	return h, nil
}

// replay applies the records of log gen and returns the offset just past
// the last good one. A torn tail yields an error wrapping ErrCorrupt
// along with that offset; a log with a torn header has offset 0.
func (x *Index) replay(gen uint64) (int64, error) {
	f, err := os.Open(filepath.Join(x.dir, logName(gen)))
	if err != nil {
		return 0, fmt.Errorf("index: %w", err)
	}
	defer f.Close()
	fr := newFrameReader(f)
	h, err := readHeader(fr, kindLog)
	if err != nil {
		return 0, err
	}
	if !x.compatible(h) {
		return 0, errRebuild
	}
	for {
		good := fr.off
		p, err := fr.next()
		if err == io.EOF {
			return good, nil
		}
		if err != nil {
			return good, err
		}
		if x.abort.Load() {
			return good, ErrClosed
		}
		if err := x.applyPayload(p); err != nil {
			// A frame whose checksum held is as written; a record in it
			// that cannot be applied is skipped, not a reason to cut the
			// records after it.
			x.log.Warn("index log record skipped", zap.String("log", logName(gen)), zap.Error(err))
		}
	}
}

// applyPayload decodes a record and applies it in memory.
func (x *Index) applyPayload(p []byte) error {
	r, err := parseRecord(p)
	if err != nil {
		return err
	}
	switch r.op {
	case opPut:
		// A record written before vectors were quantised.
		if err := x.validate(r.file); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		v := quantize(r.file.Chunks, x.cfg.Embedder.Dim())
		r.file.Chunks = withoutEmbeddings(r.file.Chunks)
		return x.applyPut(r.file, v)
	case opPutQ:
		if err := validateFile(r.file); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if err := x.validateVectors(r.file, r.vecs); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return x.applyPut(r.file, r.vecs)
	default:
		x.applyDelete(r.id)
		return nil
	}
}

// createLog starts an empty log of generation gen.
func (x *Index) createLog(gen uint64) error {
	path := filepath.Join(x.dir, logName(gen))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	b := appendHeader(nil, x.header(kindLog, gen))
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("index: writing log header: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	if err := fsutil.SyncDir(x.dir); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	x.wal, x.walGen, x.walSize = f, gen, int64(len(b))
	return nil
}

// openLog opens log gen for appending after cutting it at end. A log
// whose header is torn (end 0) is started again.
func (x *Index) openLog(gen uint64, end int64) error {
	if end == 0 {
		return x.createLog(gen)
	}
	f, err := os.OpenFile(filepath.Join(x.dir, logName(gen)), os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return fmt.Errorf("index: cutting torn log: %w", err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	x.wal, x.walGen, x.walSize = f, gen, end
	return nil
}

// appendLog writes one record frame and fsyncs; x.wmu must be held. A
// failed write is cut off again, so the log never holds garbage followed
// by good records.
func (x *Index) appendLog(payload []byte) error {
	b := appendFrame(make([]byte, 0, frameHeader+len(payload)), payload)
	_, err := x.wal.Write(b)
	if err == nil {
		if err = x.wal.Sync(); err != nil {
			// After a failed fsync the kernel may have dropped the dirty
			// pages: nothing more can be trusted to this log.
			x.broken = err
		}
	}
	if err != nil {
		if terr := x.wal.Truncate(x.walSize); terr != nil {
			x.broken = terr
		} else if _, serr := x.wal.Seek(x.walSize, io.SeekStart); serr != nil {
			x.broken = serr
		}
		return fmt.Errorf("index: writing log: %w", err)
	}
	x.walSize += int64(len(b))
	return nil
}

// Snapshot writes the whole index to a new snapshot and drops the logs it
// covers. Writers wait while it runs; queries do not.
func (x *Index) Snapshot() error {
	if err := x.Wait(context.Background()); err != nil {
		return err
	}
	x.wmu.Lock()
	defer x.wmu.Unlock()
	x.pending = false
	if x.closing || x.wal == nil {
		return ErrClosed
	}
	if x.broken != nil {
		return fmt.Errorf("index: log unusable: %w", x.broken)
	}
	// Changes from here on go to a new log; the snapshot covers every
	// earlier one.
	old := x.wal
	gen := x.walGen + 1
	if err := x.createLog(gen); err != nil {
		return err
	}
	if err := old.Close(); err != nil {
		x.log.Warn("closing old index log", zap.Error(err))
	}
	if err := x.writeSnapshot(gen); err != nil {
		return err
	}
	gens, err := x.logGens()
	if err != nil {
		return err
	}
	for _, g := range gens {
		if g < gen {
			if err := os.Remove(filepath.Join(x.dir, logName(g))); err != nil {
				return fmt.Errorf("index: %w", err)
			}
		}
	}
	return nil
}

// writeSnapshot writes every file to a temp file, syncs it and renames it
// into place; x.wmu must be held, so the state cannot change meanwhile.
func (x *Index) writeSnapshot(gen uint64) (err error) {
	tmp := filepath.Join(x.dir, snapshotTemp)
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := w.Write(appendHeader(nil, x.header(kindSnapshot, gen))); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	ids := make([]string, 0, len(x.files))
	for id := range x.files {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var payload, frame []byte
	for _, id := range ids {
		payload = appendRecord(payload[:0], x.record(id))
		frame = appendFrame(frame[:0], payload)
		if _, err := w.Write(frame); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if cap(payload) > 8<<20 {
			payload, frame = nil, nil
		}
	}
	if _, err := w.Write(appendFrame(nil, nil)); err != nil { // end marker
		return fmt.Errorf("index: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("index: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(x.dir, snapshotName)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("index: %w", err)
	}
	return fsutil.SyncDir(x.dir)
}

// record returns the put record of a stored file. Its strings and
// vectors are the index's own, which stay unchanged while x.wmu is held.
func (x *Index) record(id string) record {
	x.mu.RLock()
	defer x.mu.RUnlock()
	m := x.files[id]
	fi := m.info
	f := File{ID: fi.ID, Name: fi.Name, Path: fi.Path, Scope: fi.Scope, ConversationID: fi.ConversationID,
		SHA256: fi.SHA256, UploadedAt: fi.UploadedAt, Skipped: fi.Skipped, Chunks: make([]Chunk, len(m.texts))}
	for i := range m.texts {
		f.Chunks[i] = Chunk{Text: m.texts[i], Position: m.positions[i]}
	}
	return record{op: opPutQ, file: f, vecs: m.vecs}
}

// sortInfos sorts file infos by path, then id.
func sortInfos(fs []FileInfo) {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Path != fs[j].Path {
			return fs[i].Path < fs[j].Path
		}
		return fs[i].ID < fs[j].ID
	})
}
