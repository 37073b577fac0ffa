package chat

import (
	"os"
	"path/filepath"
	"testing"

	"opsassist/storage/uploads"
)

// TestRemoveOrphanUploads simulates the two crash points that leave an
// upload nobody records: after the upload's rename, before its history
// record; and after a conversation's deletion, before its uploads'
// removal. Both are gone after RemoveOrphanUploads; a recorded upload,
// also one of a conversation that has nothing but uploads, stays.
func TestRemoveOrphanUploads(t *testing.T) {
	s := newService(t, scripted{text: "a"}, nil)
	se := s.NewSession("cli", Local())
	begin := func(name string) *uploads.Pending {
		p, err := se.BeginUpload(name, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("x"))
		return p
	}
	kept, err := se.CommitUpload(begin("kept.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Crash point 1: stored, never recorded.
	unrecorded, err := begin("unrecorded.txt").Commit()
	if err != nil {
		t.Fatal(err)
	}
	// Crash point 2: the conversation is deleted, its uploads not yet.
	other := s.NewSession("cli", Local())
	p, err := other.BeginUpload("of-deleted.txt", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("y"))
	ofDeleted, err := other.CommitUpload(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cfg.History.Delete(other.ID()); err != nil {
		t.Fatal(err)
	}

	n, err := s.RemoveOrphanUploads()
	if err != nil || n != 2 {
		t.Fatalf("removed %d, %v; want 2", n, err)
	}
	for _, gone := range []string{unrecorded.Path, ofDeleted.FilePath} {
		if _, err := os.Stat(filepath.Dir(gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", gone, err)
		}
	}
	if _, err := os.Stat(kept.FilePath); err != nil {
		t.Errorf("recorded upload removed: %v", err)
	}
	if n, err := s.RemoveOrphanUploads(); err != nil || n != 0 {
		t.Fatalf("second pass removed %d, %v", n, err)
	}
}
