//go:build unix

package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"opsassist/storage/embed"
)

// gatedSnapshot makes dir/snapshot a named pipe that yields the snapshot
// of an index holding files, and returns a function that feeds it: until
// then, an index opening dir is stuck loading.
func gatedSnapshot(t *testing.T, dir string, e embed.Embedder, files ...File) (release func()) {
	t.Helper()
	src := t.TempDir()
	x := openTest(t, src, Config{Embedder: e})
	for _, f := range files {
		if err := x.Put(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Snapshot(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(src, snapshotName))
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, snapshotName)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	return func() {
		// Opening for writing waits for the loader to open it for reading.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer w.Close()
		if _, err := w.Write(b); err != nil {
			t.Error(err)
		}
	}
}

// TestSearchWhileLoading: an index opened with Start answers Search with
// ErrLoading, says it is loading in Stats and holds writers back until
// its snapshot has been read; then it answers normally.
func TestSearchWhileLoading(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	release := gatedSnapshot(t, dir, e, makeFile(t, e, "a", "backup.md", ScopeSystem, "", "数据库 每天 凌晨 备份 到 对象存储"))
	x, err := Start(dir, Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Search(ctx, Query{Text: "数据库 备份"}); !errors.Is(err, ErrLoading) {
		t.Fatalf("search while loading: %v", err)
	}
	if st := x.Stats(); !st.Loading {
		t.Fatalf("stats while loading: %+v", st)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := x.Put(cctx, makeFile(t, e, "b", "b.md", ScopeSystem, "", "x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("put while loading, with its context cancelled: %v", err)
	}
	release()
	if err := x.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	hits, err := x.Search(ctx, Query{Text: "数据库 备份"})
	if err != nil || len(hits) != 1 || hits[0].File.Name != "backup.md" {
		t.Fatalf("search after loading: %+v, %v", hits, err)
	}
	if st := x.Stats(); st.Loading || st.Files != 1 {
		t.Fatalf("stats after loading: %+v", st)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}
