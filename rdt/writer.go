package rdt

import (
	"errors"
	"sync"

	"opsassist/internal/partfile"
)

// Part-file writer sizing: payloads are copied into chunks of a quarter
// of the receive window, between minWriteChunk and writeChunk bytes,
// contiguous ones coalesced, and at most writeChunks chunks exist: a
// slow disk holds up the packet path only once that much is queued (the
// kernel's socket buffer absorbs the rest), and a killed download loses
// at most about a window of bytes that had arrived but were not written.
const (
	minWriteChunk = 64 << 10
	writeChunk    = 1 << 20
	writeChunks   = 4
)

// writeChunkFor returns the chunk size for a window of window bytes.
func writeChunkFor(window int) int { return min(max(window/writeChunks, minWriteChunk), writeChunk) }

// errWriterClosed: a write after the writer was stopped.
var errWriterClosed = errors.New("rdt: part file writer closed")

// wseg is one run of contiguous bytes in a chunk, for file offset off.
type wseg struct {
	off        uint64
	start, end int
}

// wchunk is a buffer of payloads on its way to the part file.
type wchunk struct {
	buf  []byte
	segs []wseg
}

// Markers the owner loop queues for the writer besides chunks.
var (
	drainMark = &wchunk{} // answer on idle once everything before is written
	flushMark = &wchunk{} // the same, once the syncer saved every checkpoint too
	saveMark  = &wchunk{} // checkpoint once everything before is written
)

// partWriter takes the part file's writes (and the hashing partfile
// does as they pass), and the periodic fsync and record saves
// (SaveLater), off the packet path. WriteAt copies a payload into
// the current chunk, extending the last run when contiguous; full
// chunks go, in order, to a writer goroutine once startAsync ran (until
// then, and after stop, they are written inline). The writer takes a
// checkpoint of the ranges written (partfile.File.Checkpoint) where
// SaveLater asked for one and leaves it for a syncer goroutine, which
// fsyncs and writes the record while the writer goes on writing and
// hashing. The writer never waits for the syncer: a checkpoint taken
// while an older one waits replaces it (the newer covers the older), so
// an fsync of tens of megabytes, or a disk that cannot keep up with the
// saves, never stops the bytes behind it. Every other method first
// waits until all queued bytes are written (and, where the record
// matters, the syncer saved the newest checkpoint), so the part file is
// only ever used by one goroutine at a time outside SaveCheckpoint. Not
// safe for concurrent use: the download's owner loop calls it.
type partWriter struct {
	part *partfile.File
	size int64  // part.Size(), mirrored
	sent uint64 // bytes handed over since the last Save

	cur   *wchunk
	free  chan *wchunk
	queue chan *wchunk
	idle  chan struct{} // the writer took a drain or flush marker
	// The syncer's inbox: kick says pending holds a checkpoint; a flush
	// sends a channel the syncer closes once nothing is pending.
	kick    chan struct{}
	syncReq chan chan struct{}
	saveCP  func(partfile.Checkpoint) error // part.SaveCheckpoint; tests slow it down
	wg      sync.WaitGroup
	async   bool

	mu      sync.Mutex
	err     error                // the first write or save error, sticky
	pending *partfile.Checkpoint // the newest checkpoint not yet saved
}

// newPartWriter returns a writer for part with chunks of chunk bytes.
func newPartWriter(part *partfile.File, chunk int) *partWriter {
	w := &partWriter{part: part, size: part.Size(), free: make(chan *wchunk, writeChunks), saveCP: part.SaveCheckpoint}
	for range writeChunks {
		w.free <- &wchunk{buf: make([]byte, 0, chunk)}
	}
	return w
}

// startAsync starts the writer goroutine; stop ends it.
func (w *partWriter) startAsync() {
	if w.async {
		return
	}
	w.async = true
	w.queue = make(chan *wchunk, writeChunks)
	w.idle = make(chan struct{})
	w.kick = make(chan struct{}, 1)
	w.syncReq = make(chan chan struct{})
	w.wg.Add(2)
	go func() { // the syncer
		defer w.wg.Done()
		for {
			select {
			case <-w.kick:
				w.saveLatest()
			case done, ok := <-w.syncReq:
				w.saveLatest()
				if !ok {
					return
				}
				close(done)
			}
		}
	}()
	go func() { // the writer
		defer w.wg.Done()
		defer close(w.syncReq)
		for c := range w.queue {
			switch c {
			case drainMark:
				w.idle <- struct{}{}
			case flushMark:
				done := make(chan struct{})
				w.syncReq <- done
				<-done
				w.idle <- struct{}{}
			case saveMark:
				w.checkpoint()
			default:
				w.write(c)
				w.free <- c
			}
		}
	}()
}

// stop writes what is queued and ends the writer goroutine.
func (w *partWriter) stop() error {
	err := w.flush()
	if w.async {
		close(w.queue)
		w.wg.Wait()
		w.async = false
	}
	return err
}

// write writes a chunk's runs; the first error sticks.
func (w *partWriter) write(c *wchunk) {
	w.mu.Lock()
	failed := w.err != nil
	w.mu.Unlock()
	if !failed {
		for _, s := range c.segs {
			if err := w.part.WriteAt(c.buf[s.start:s.end], s.off); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
				break
			}
		}
	}
	c.buf, c.segs = c.buf[:0], c.segs[:0]
}

// checkpoint, on the writer goroutine, takes the ranges written so far
// as the syncer's pending checkpoint (replacing one it has not started
// on) and kicks the syncer; it never waits.
func (w *partWriter) checkpoint() {
	if w.failed() != nil {
		return
	}
	cp, ok := w.part.Checkpoint()
	if !ok {
		return
	}
	w.mu.Lock()
	w.pending = &cp
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default: // a kick is already waiting; it will find this checkpoint
	}
}

// saveLatest, on the syncer goroutine, saves the pending checkpoint, if
// any (partfile.File.SaveCheckpoint); the first error sticks.
func (w *partWriter) saveLatest() {
	w.mu.Lock()
	c := w.pending
	w.pending = nil
	failed := w.err != nil
	w.mu.Unlock()
	if c == nil || failed {
		return
	}
	if err := w.saveCP(*c); err != nil {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
	}
}

func (w *partWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// WriteAt queues b for offset off. It returns an earlier write's error.
func (w *partWriter) WriteAt(b []byte, off uint64) error {
	if err := w.failed(); err != nil {
		return err
	}
	for len(b) > 0 {
		if w.cur == nil {
			w.cur = <-w.free
		}
		c := w.cur
		n := min(len(b), cap(c.buf)-len(c.buf))
		if n == 0 {
			w.handOver()
			continue
		}
		start := len(c.buf)
		c.buf = append(c.buf, b[:n]...)
		if k := len(c.segs) - 1; k >= 0 && c.segs[k].end == start && c.segs[k].off+uint64(c.segs[k].end-c.segs[k].start) == off {
			c.segs[k].end += n
		} else {
			c.segs = append(c.segs, wseg{off: off, start: start, end: start + n})
		}
		b, off = b[n:], off+uint64(n)
		w.sent += uint64(n)
		if len(c.buf) == cap(c.buf) {
			w.handOver()
		}
	}
	return nil
}

// handOver sends the current chunk to the writer, or writes it inline.
func (w *partWriter) handOver() {
	c := w.cur
	w.cur = nil
	if c == nil {
		return
	}
	if w.async {
		w.queue <- c
		return
	}
	w.write(c)
	w.free <- c
}

// flush waits until every byte handed to WriteAt is in the part file
// and every checkpoint asked for is saved, and returns the first error.
func (w *partWriter) flush() error { return w.wait(flushMark) }

// drain waits until every byte handed to WriteAt is in the part file,
// not for the syncer, and returns the first error.
func (w *partWriter) drain() error { return w.wait(drainMark) }

func (w *partWriter) wait(mark *wchunk) error {
	w.handOver()
	if w.async {
		w.queue <- mark
		<-w.idle
	}
	return w.failed()
}

// Size returns the file's size, -1 until known.
func (w *partWriter) Size() int64 { return w.size }

// SetSize records the file's size. It waits for the writer (which
// reads the size into checkpoints), not for a save under way.
func (w *partWriter) SetSize(n int64) {
	w.drain()
	w.size = n
	w.part.SetSize(n)
}

// SetSHA256 records the SHA-256 (hex) the file must have.
func (w *partWriter) SetSHA256(sum string) {
	w.drain()
	w.part.SetSHA256(sum)
}

// Unsaved returns how many bytes were handed over since the last Save
// (duplicates included: an estimate).
func (w *partWriter) Unsaved() uint64 { return w.sent }

// Save writes what is queued, then partfile.File.Save.
func (w *partWriter) Save() error {
	if err := w.flush(); err != nil {
		return err
	}
	w.sent = 0
	return w.part.Save()
}

// SaveLater has the writer checkpoint the ranges once the bytes handed
// over so far are written, and the syncer save that checkpoint, without
// waiting for either (inline when not async). It returns an earlier
// write's or save's error.
func (w *partWriter) SaveLater() error {
	if !w.async {
		return w.Save()
	}
	w.handOver()
	w.sent = 0
	w.queue <- saveMark
	return w.failed()
}

// Commit writes what is queued, then partfile.File.Commit.
func (w *partWriter) Commit(sum [32]byte) error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.part.Commit(sum)
}

// Discard drops what is queued and deletes the part file.
func (w *partWriter) Discard() {
	w.flush()
	w.part.Discard()
}
