package app

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// TestStartRemovesUnrecordedUploads reproduces a crash between an
// upload's rename into place and its history record on a data directory,
// then starts the daemon on it: the unrecorded upload is gone, the
// recorded one is still there.
func TestStartRemovesUnrecordedUploads(t *testing.T) {
	data := t.TempDir()
	hist, err := history.Open(filepath.Join(data, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(data, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	commit := func(name string) uploads.Result {
		p, err := ups.Begin(name, 5, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("hello"))
		r, err := p.Commit()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	kept := commit("kept.txt")
	conv := hist.New(time.Now())
	if err := conv.AddUpload(history.Upload{FileID: kept.ID, Filename: kept.Name, FilePath: kept.Path, Size: kept.Size, SHA256: kept.SHA256, UploadedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	orphan := commit("orphan.txt") // the crash: no AddUpload

	a := startApp(t, data)
	defer stop(t, a)
	if _, err := os.Stat(filepath.Dir(orphan.Path)); !os.IsNotExist(err) {
		t.Errorf("unrecorded upload still on disk (%v)", err)
	}
	if _, err := os.Stat(kept.Path); err != nil {
		t.Errorf("recorded upload lost: %v", err)
	}
}
