package uploads

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func commitOne(t *testing.T, s *Store, name string) Result {
	t.Helper()
	p, err := s.Begin(name, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("x"))
	r, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestQuarantine: uploads nobody keeps are moved to .orphans, not
// deleted, and still count towards the quota; kept ones, uploads
// committed after the cut-off, the temp directory, foreign names and
// plain files stay where they are.
func TestQuarantine(t *testing.T) {
	s := newStore(t)
	kept, orphan, late := commitOne(t, s, "kept.txt"), commitOne(t, s, "orphan.txt"), commitOne(t, s, "late.txt")
	cut := time.Now()
	// late was committed after the caller read its records.
	future := cut.Add(time.Minute)
	if err := os.Chtimes(filepath.Dir(late.Path), future, future); err != nil {
		t.Fatal(err)
	}
	past := cut.Add(-time.Minute)
	os.Chtimes(filepath.Dir(orphan.Path), past, past)
	os.Mkdir(filepath.Join(s.Dir(), "not-an-id"), 0o700)
	os.WriteFile(filepath.Join(s.Dir(), "note.txt"), nil, 0o600)
	used := s.Used()

	moved, err := s.Quarantine(func(id string) bool { return id == kept.ID }, cut)
	if err != nil || len(moved) != 1 || moved[0] != orphan.ID {
		t.Fatalf("quarantined %v, %v; want [%s]", moved, err, orphan.ID)
	}
	for _, p := range []string{kept.Path, late.Path, filepath.Join(s.Dir(), tmpDir), filepath.Join(s.Dir(), "not-an-id"), filepath.Join(s.Dir(), "note.txt")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Dir(orphan.Path)); !os.IsNotExist(err) {
		t.Errorf("orphan still in place: %v", err)
	}
	qpath := filepath.Join(s.Dir(), OrphansDir, orphan.ID, orphan.Name)
	if b, err := os.ReadFile(qpath); err != nil || string(b) != "x" {
		t.Fatalf("quarantined file: %q, %v", b, err)
	}
	if s.Used() != used || s.OrphanBytes() != 1 {
		t.Fatalf("used %d (was %d), in quarantine %d; want quarantined bytes still counted", s.Used(), used, s.OrphanBytes())
	}
	// Reopened, the quota still counts the quarantined bytes.
	s2, err := Open(Config{Dir: s.Dir(), MaxSize: 1 << 20})
	if err != nil || s2.Used() != used {
		t.Fatalf("reopened: used %d, %v; want %d", s2.Used(), err, used)
	}
	// A second pass finds nothing more.
	if moved, err := s.Quarantine(func(id string) bool { return id == kept.ID }, cut); err != nil || len(moved) != 0 {
		t.Fatalf("second pass quarantined %v, %v", moved, err)
	}
}

// TestPurgeOrphans: quarantined uploads are deleted once their grace
// period is over, and their bytes leave the quota; younger ones stay.
func TestPurgeOrphans(t *testing.T) {
	s := newStore(t)
	old, young := commitOne(t, s, "old.txt"), commitOne(t, s, "young.txt")
	moved, err := s.Quarantine(func(string) bool { return false }, time.Now().Add(time.Minute))
	if err != nil || len(moved) != 2 {
		t.Fatalf("quarantined %v, %v", moved, err)
	}
	longAgo := time.Now().Add(-OrphanGrace - time.Hour)
	os.Chtimes(filepath.Join(s.Dir(), OrphansDir, old.ID), longAgo, longAgo)
	used := s.Used()
	purged, err := s.PurgeOrphans(time.Now().Add(-OrphanGrace))
	if err != nil || len(purged) != 1 || purged[0] != old.ID {
		t.Fatalf("purged %v, %v; want [%s]", purged, err, old.ID)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), OrphansDir, young.ID, young.Name)); err != nil {
		t.Fatalf("young orphan purged: %v", err)
	}
	if s.Used() != used-1 {
		t.Fatalf("used %d after purge, want %d", s.Used(), used-1)
	}
}
