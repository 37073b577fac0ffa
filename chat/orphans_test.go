package chat_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/chat"
	"opsassist/storage/uploads"
)

// TestQuarantineOrphanUploads simulates the two crash points that leave
// an upload nobody records: after the upload's rename, before its
// history record; and after a conversation's deletion, before its
// uploads' removal. Both are moved to quarantine, not deleted, by
// QuarantineOrphanUploads; a recorded upload, also one of a conversation
// that has nothing but uploads, stays.
func TestQuarantineOrphanUploads(t *testing.T) {
	s := newService(t, scripted{text: "a"}, nil)
	se := s.NewSession("cli", chat.Local())
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
	other := s.NewSession("cli", chat.Local())
	p, err := other.BeginUpload("of-deleted.txt", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("y"))
	ofDeleted, err := other.CommitUpload(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := chat.ConfigOf(s).History.Delete(other.ID()); err != nil {
		t.Fatal(err)
	}

	loaded := time.Now() // after the commits, as at start-up
	rep, err := s.QuarantineOrphanUploads(loaded)
	if err != nil || len(rep.Quarantined) != 2 || rep.Skipped {
		t.Fatalf("report %+v, %v; want 2 quarantined", rep, err)
	}
	for _, gone := range []string{unrecorded.Path, ofDeleted.FilePath} {
		if _, err := os.Stat(filepath.Dir(gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", gone, err)
		}
		q := filepath.Join(chat.ConfigOf(s).Uploads.Dir(), uploads.OrphansDir, filepath.Base(filepath.Dir(gone)), filepath.Base(gone))
		if _, err := os.Stat(q); err != nil {
			t.Errorf("%s not in quarantine: %v", gone, err)
		}
	}
	if _, err := os.Stat(kept.FilePath); err != nil {
		t.Errorf("recorded upload removed: %v", err)
	}
	if rep, err := s.QuarantineOrphanUploads(loaded); err != nil || len(rep.Quarantined) != 0 {
		t.Fatalf("second pass %+v, %v", rep, err)
	}
}
