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
		path := filepath.Join(t.TempDir(), "out")
		part, err := partfile.Create(path, partfile.ID{Token: "t"})
		if err != nil {
			t.Fatal(err)
		}
		const chunk = minWriteChunk
		w := newPartWriter(part, chunk)
		started, release := make(chan struct{}), make(chan struct{})
		save := w.saveCP
		w.saveCP = func(c partfile.Checkpoint) error {
			close(started)
			<-release
			return save(c)
		}
		w.startAsync()
		w.SetSize(int64(4 * writeChunks * chunk))
		data := bytes.Repeat([]byte{7}, chunk)
		if err := w.WriteAt(data, 0); err != nil {
			t.Fatal(err)
		}
		if err := w.SaveLater(); err != nil {
			t.Fatal(err)
		}
		<-started
		// More chunks than the writer has buffers: each WriteAt past the
		// first writeChunks waits for a buffer the writer wrote out.
		for i := 1; i < 3*writeChunks; i++ {
			if err := w.WriteAt(data, uint64(i*chunk)); err != nil {
				t.Fatal(err)
			}
		}
		close(release)
		if err := w.stop(); err != nil {
			t.Fatal(err)
		}
		part.Close()
		reopened, err := partfile.Open(path, partfile.ID{Token: "t"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer reopened.Close()
		if got := reopened.Ranges(); len(got) != 1 || got[0].Start != 0 || got[0].End != chunk {
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
		path := filepath.Join(t.TempDir(), "out")
		part, err := partfile.Create(path, partfile.ID{Token: "t"})
		if err != nil {
			t.Fatal(err)
		}
		const chunk = minWriteChunk
		w := newPartWriter(part, chunk)
		release := make(chan struct{})
		save := w.saveCP
		var saves []partfile.Checkpoint
		w.saveCP = func(c partfile.Checkpoint) error {
			if len(saves) == 0 {
				<-release
			}
			saves = append(saves, c)
			return save(c)
		}
		w.startAsync()
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
		}
		close(release)
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		if len(saves) != 2 {
			t.Fatalf("%d saves, want the held one and the newest", len(saves))
		}
		reopened, err := partfile.Open(path, partfile.ID{Token: "t"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := reopened.Ranges()
		reopened.Close()
		last := (n - writeChunks - 1) / writeChunks * writeChunks // the last i that saved
		if want := uint64((last + 1) * chunk); len(got) != 1 || got[0].Start != 0 || got[0].End < want {
			t.Fatalf("record holds %v, want [0, ≥%d)", got, want)
		}

		boom := errors.New("disk gone")
		w.saveCP = func(partfile.Checkpoint) error { return boom }
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
		w.stop()
		part.Close()
	})
}
