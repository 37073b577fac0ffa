package uploads

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quotaEntries lists what the store holds besides the temp directory, and
// what the temp directory holds.
func quotaEntries(t *testing.T, s *Store) (stored, temp []string) {
	t.Helper()
	ents, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != tmpDir {
			stored = append(stored, e.Name())
		}
	}
	tmps, err := os.ReadDir(filepath.Join(s.Dir(), tmpDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tmps {
		temp = append(temp, e.Name())
	}
	return stored, temp
}

func put(t *testing.T, s *Store, name string, n int) Result {
	t.Helper()
	p, err := s.Begin(name, int64(n), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte(strings.Repeat("x", n))); err != nil {
		t.Fatal(err)
	}
	r, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestServerQuotaDeclared refuses an upload whose declared size would
// pass the total quota before anything is stored, counts the bytes
// uploads in progress wrote, and frees what Abort and Remove give back.
func TestServerQuotaDeclared(t *testing.T) {
	s, err := Open(Config{Dir: t.TempDir(), MaxSize: 1000, MaxTotal: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := put(t, s, "a.txt", 60)
	_, err = s.Begin("b.txt", 50, "")
	var qe *QuotaError
	if !errors.Is(err, ErrQuota) || !errors.As(err, &qe) || qe.Scope != QuotaServer || qe.Limit != 100 || qe.Used != 60 || qe.Need != 50 {
		t.Fatalf("Begin past the quota: %v", err)
	}
	if stored, temp := quotaEntries(t, s); len(stored) != 1 || len(temp) != 0 {
		t.Fatalf("after a refusal: stored %v, temp %v", stored, temp)
	}
	// An upload in progress holds the bytes it wrote; aborting it gives
	// them back.
	p, err := s.Begin("c.txt", 40, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(make([]byte, 40)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin("d.txt", 1, ""); !errors.Is(err, ErrQuota) {
		t.Fatalf("Begin while 100 bytes are used or booked: %v", err)
	}
	p.Abort()
	if err := s.Remove(r.ID); err != nil {
		t.Fatal(err)
	}
	if s.Used() != 0 {
		t.Fatalf("used %d after removing everything", s.Used())
	}
	put(t, s, "e.txt", 100)
	if !strings.Contains(qe.Message(), "上传配额已满") || !strings.Contains(qe.Message(), "Upload quota exceeded") {
		t.Errorf("message %q", qe.Message())
	}
}

// TestServerQuotaStream refuses a streamed upload as soon as its data
// passes the quota and leaves no temp file once it is aborted.
func TestServerQuotaStream(t *testing.T) {
	s, err := Open(Config{Dir: t.TempDir(), MaxSize: 1000, MaxTotal: 100})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.txt", 60)
	p, err := s.BeginStream("b.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(make([]byte, 30)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(make([]byte, 20)); !errors.Is(err, ErrQuota) {
		t.Fatalf("write past the quota: %v", err)
	}
	p.Abort()
	if stored, temp := quotaEntries(t, s); len(stored) != 1 || len(temp) != 0 {
		t.Fatalf("after a refusal: stored %v, temp %v", stored, temp)
	}
	// The 30 bytes booked are given back.
	q, err := s.BeginStream("c.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Write(make([]byte, 40)); err != nil {
		t.Fatal(err)
	}
	q.End()
	if _, err := q.Commit(); err != nil {
		t.Fatal(err)
	}
	if s.Used() != 100 {
		t.Fatalf("used %d, want 100", s.Used())
	}
}

// TestQuotaCountsStoredUploads: a reopened store counts the uploads on
// disk, so a restart does not reset the quota.
func TestQuotaCountsStoredUploads(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Config{Dir: dir, MaxSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.txt", 70)
	s, err = Open(Config{Dir: dir, MaxSize: 1000, MaxTotal: 100})
	if err != nil {
		t.Fatal(err)
	}
	if s.Used() != 70 {
		t.Fatalf("used %d, want 70", s.Used())
	}
	if _, err := s.Begin("b.txt", 31, ""); !errors.Is(err, ErrQuota) {
		t.Fatalf("Begin past the quota after a restart: %v", err)
	}
}

// TestDeclaredUploadBooksWhatArrives: an upload of declared size is
// refused at Begin if it cannot fit, but it holds only the bytes that
// arrived, so uploads that stop sending cannot lock others out; the one
// whose data no longer fits is refused when it arrives, and the counts
// come back to the bytes on disk.
func TestDeclaredUploadBooksWhatArrives(t *testing.T) {
	s, err := Open(Config{Dir: t.TempDir(), MaxSize: 100, MaxTotal: 200})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin("big.txt", 201, ""); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Begin past the size limit: %v", err)
	}
	// Two idle uploads of 100 bytes declared, one byte sent each.
	idle := make([]*Pending, 2)
	for i := range idle {
		if idle[i], err = s.Begin("idle.txt", 100, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := idle[i].Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	// A third, small upload fits beside them.
	r := put(t, s, "small.txt", 5)
	// Both idle uploads resume. Once the first has all its data, a
	// declared size that cannot fit beside what is stored and written is
	// still refused before anything is stored; the second upload no
	// longer fits when its data arrives and is refused then, for what
	// the file still needs.
	if _, err := idle[0].Write(make([]byte, 99)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin("c.txt", 95, ""); !errors.Is(err, ErrQuota) {
		t.Fatalf("Begin past the quota: %v", err)
	}
	if _, temp := quotaEntries(t, s); len(temp) != 2 {
		t.Fatalf("temp %v: want the two uploads in progress only", temp)
	}
	_, err = idle[1].Write(make([]byte, 99))
	var qe *QuotaError
	if !errors.As(err, &qe) || qe.Scope != QuotaServer || qe.Used != 106 || qe.Need != 99 {
		t.Fatalf("write past the quota: %v", err)
	}
	idle[1].Abort()
	if _, err := idle[0].Commit(); err != nil {
		t.Fatal(err)
	}
	if stored, temp := quotaEntries(t, s); len(stored) != 2 || len(temp) != 0 {
		t.Fatalf("stored %v, temp %v", stored, temp)
	}
	// The counts are the bytes on disk: 105 stored, nothing booked, so
	// exactly 95 more fit.
	if s.Used() != 105 {
		t.Fatalf("used %d, want 105", s.Used())
	}
	if _, err := s.Begin("d.txt", 96, ""); !errors.Is(err, ErrQuota) {
		t.Fatalf("Begin of 96 bytes with 95 free: %v", err)
	}
	put(t, s, "e.txt", 95)
	if err := s.Remove(r.ID); err != nil {
		t.Fatal(err)
	}
	reopened, err := Open(Config{Dir: s.Dir(), MaxSize: 100, MaxTotal: 200})
	if err != nil {
		t.Fatal(err)
	}
	if s.Used() != 195 || reopened.Used() != 195 {
		t.Fatalf("used %d, reopened %d, want 195", s.Used(), reopened.Used())
	}
}
