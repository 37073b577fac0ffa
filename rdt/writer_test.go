package rdt

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"opsassist/internal/partfile"
	"opsassist/internal/rangeset"
)

// TestPartWriter writes a file in shuffled, duplicated and contiguous
// pieces straddling chunk boundaries, inline and on the writer
// goroutine: the part file commits with the right SHA-256 either way,
// and Save sees every byte handed over before it.
func TestPartWriter(t *testing.T) {
	data := make([]byte, 3*writeChunk+12345)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	type piece struct{ off, n int }
	var pieces []piece
	for off := 0; off < len(data); {
		n := min(1+r.IntN(20000), len(data)-off)
		pieces = append(pieces, piece{off, n})
		off += n
	}
	// Shuffle a third of them, and send some twice.
	for i := 0; i < len(pieces)/3; i++ {
		j, k := r.IntN(len(pieces)), r.IntN(len(pieces))
		pieces[j], pieces[k] = pieces[k], pieces[j]
	}
	pieces = append(pieces, pieces[:10]...)
	for _, async := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "out")
		part, err := partfile.Create(path, partfile.ID{Token: "t"})
		if err != nil {
			t.Fatal(err)
		}
		w := newPartWriter(part, writeChunk)
		if async {
			w.startAsync()
		}
		w.SetSize(int64(len(data)))
		for i, p := range pieces {
			if err := w.WriteAt(data[p.off:p.off+p.n], uint64(p.off)); err != nil {
				t.Fatal(err)
			}
			if i == len(pieces)/2 {
				if err := w.Save(); err != nil {
					t.Fatal(err)
				}
				if w.Unsaved() != 0 {
					t.Fatal("Unsaved after Save")
				}
			}
		}
		if err := w.Commit(sha256.Sum256(data)); err != nil {
			t.Fatalf("async %v: %v", async, err)
		}
		if err := w.stop(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("async %v: file differs (%v)", async, err)
		}
	}
}

// TestPartWriterError: a failed write (the part file closed under it)
// comes back from a later call, not lost.
func TestPartWriterError(t *testing.T) {
	part, err := partfile.Create(filepath.Join(t.TempDir(), "out"), partfile.ID{Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	w := newPartWriter(part, writeChunk)
	w.startAsync()
	defer w.stop()
	part.Close()
	buf := make([]byte, writeChunk)
	var werr error
	for i := 0; i < 2*writeChunks && werr == nil; i++ {
		werr = w.WriteAt(buf, uint64(i)*writeChunk)
	}
	if werr == nil {
		werr = w.flush()
	}
	if !errors.Is(werr, os.ErrClosed) {
		t.Fatalf("error %v, want os.ErrClosed", werr)
	}
}

// TestProgressPump: a callback that blocks never holds up post; the
// snapshots it missed are merged into the latest; stop delivers the
// last one before it returns, and calls never overlap.
func TestProgressPump(t *testing.T) {
	release := make(chan struct{})
	var calls, inside atomic.Int64
	var last atomic.Int64
	u := startProgressPump(func(p Progress) {
		if inside.Add(1) != 1 {
			t.Error("overlapping calls")
		}
		if calls.Add(1) == 1 {
			<-release // the first call blocks, as a stuck terminal would
		}
		last.Store(p.Received)
		inside.Add(-1)
	})
	for i := range 1000 {
		u.post(Progress{Received: int64(i)})
	}
	close(release)
	u.post(Progress{Received: 1000})
	u.stop()
	if last.Load() != 1000 {
		t.Fatalf("last snapshot %d, want 1000", last.Load())
	}
	if n := calls.Load(); n > 3 {
		t.Fatalf("%d calls for snapshots posted while the first blocked", n)
	}
}

// heldWriter is a started writer of minWriteChunk chunks on a part
// file in a temporary directory whose first checkpoint save is held:
// started closes as that save begins, and it goes on (to the real save)
// once the test closes release; later saves go straight through. saves
// lists the checkpoints saved, in order (read it only after a flush or
// stop: the syncer appends to it).
type heldWriter struct {
	w       *partWriter
	part    *partfile.File
	path    string
	started chan struct{}
	release chan struct{}
	saves   []partfile.Checkpoint
	saveErr error // once set (by the test, between saves), every save fails with it
}

// newHeldWriter builds a heldWriter; t.Cleanup lets a held save go,
// stops the writer and closes the part file, in case the test did not
// get that far.
func newHeldWriter(t *testing.T) *heldWriter {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out")
	part, err := partfile.Create(path, partfile.ID{Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	h := &heldWriter{part: part, path: path, started: make(chan struct{}), release: make(chan struct{})}
	h.w = newPartWriter(part, minWriteChunk)
	save := h.w.saveCP
	h.w.saveCP = func(c partfile.Checkpoint) error {
		if len(h.saves) == 0 {
			close(h.started)
			<-h.release
		}
		h.saves = append(h.saves, c)
		if h.saveErr != nil {
			return h.saveErr
		}
		return save(c)
	}
	h.w.startAsync()
	t.Cleanup(func() {
		select {
		case <-h.release:
		default: // a test that failed before it let the save go
			close(h.release)
		}
		h.w.stop()
		part.Close()
	})
	return h
}

// ranges returns the ranges the part file's record holds, as a later
// Open sees them.
func (h *heldWriter) ranges(t *testing.T) []rangeset.Range {
	t.Helper()
	reopened, err := partfile.Open(h.path, partfile.ID{Token: "t"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	return reopened.Ranges()
}

// TestPartWriterSyncOffWritePath: while a checkpoint's fsync and record
// save are under way (held here until the test lets them go), the
// writer goes on writing: chunks handed over after SaveLater reach the
// part file and their buffers come back, so the owner loop is never held
// up by the disk's flush. Stop then waits for the save, and the record
// holds the ranges written before SaveLater.
func TestPartWriterSyncOffWritePath(t *testing.T) {
	// In a bubble, a writer that waited for the save would deadlock the
	// test at once instead of hanging it.
	synctest.Test(t, func(t *testing.T) {
		h := newHeldWriter(t)
		w := h.w
		const chunk = minWriteChunk
		w.SetSize(int64(4 * writeChunks * chunk))
		data := bytes.Repeat([]byte{7}, chunk)
		if err := w.WriteAt(data, 0); err != nil {
			t.Fatal(err)
		}
		if err := w.SaveLater(); err != nil {
			t.Fatal(err)
		}
		<-h.started
		// More chunks than the writer has buffers: each WriteAt past the
		// first writeChunks waits for a buffer the writer wrote out.
		for i := 1; i < 3*writeChunks; i++ {
			if err := w.WriteAt(data, uint64(i*chunk)); err != nil {
				t.Fatal(err)
			}
		}
		close(h.release)
		if err := w.stop(); err != nil {
			t.Fatal(err)
		}
		h.part.Close()
		if got := h.ranges(t); len(got) != 1 || got[0].Start != 0 || got[0].End != chunk {
			t.Fatalf("record holds %v, want [0, %d)", got, chunk)
		}
	})
}

// TestPartWriterCheckpointsCoalesce: SaveLater faster than the disk
// saves — five checkpoints while the first save is held — never stops
// the writer; the checkpoints taken meanwhile collapse into the newest,
// which is the one saved next, and the record then holds every byte
// handed over before the last SaveLater. A save's error reaches Commit.
func TestPartWriterCheckpointsCoalesce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHeldWriter(t)
		w := h.w
		const chunk = minWriteChunk
		const n = 6 * writeChunks
		w.SetSize(int64(n * chunk))
		data := bytes.Repeat([]byte{7}, chunk)
		for i := range n {
			if err := w.WriteAt(data, uint64(i*chunk)); err != nil {
				t.Fatal(err)
			}
			if i%writeChunks == 0 && i < n-writeChunks {
				if err := w.SaveLater(); err != nil {
					t.Fatal(err)
				}
			}
			if i == 0 {
				// The first checkpoint's save is under way before the
				// next is taken: otherwise the syncer, slow to start,
				// could find a newer one first and save only that.
				<-h.started
			}
		}
		// Every checkpoint was taken by now: the writer took the last
		// before it wrote the chunk after it, whose buffer the last
		// WriteAt waited for.
		close(h.release)
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		if len(h.saves) != 2 {
			t.Fatalf("%d saves, want the held one and the newest", len(h.saves))
		}
		got := h.ranges(t)
		last := (n - writeChunks - 1) / writeChunks * writeChunks // the last i that saved
		if want := uint64((last + 1) * chunk); len(got) != 1 || got[0].Start != 0 || got[0].End < want {
			t.Fatalf("record holds %v, want [0, ≥%d)", got, want)
		}

		boom := errors.New("disk gone")
		h.saveErr = boom
		if err := w.WriteAt(data, 0); err != nil {
			t.Fatal(err)
		}
		// The syncer may fail the save before SaveLater returns, so
		// SaveLater reports either nothing yet or the save's error.
		if err := w.SaveLater(); err != nil && !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if err := w.Commit([32]byte{}); !errors.Is(err, boom) {
			t.Fatalf("Commit after a failed save: %v", err)
		}
	})
}
