package partfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"opsassist/internal/rangeset"
)

func testData(n int) ([]byte, [32]byte) {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{1}).Read(b)
	return b, sha256.Sum256(b)
}

func mustNotExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists", p)
		}
	}
}

// TestWriteOutOfOrderAndCommit writes chunks in a shuffled order (some
// twice), so the hash is fed both as bytes pass and by reading back; the
// committed file is exact and nothing else is left.
func TestWriteOutOfOrderAndCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.bin")
	data, sum := testData(3*hashChunk + 12345)
	p, err := Create(path, ID{Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetSize(int64(len(data)))
	const chunk = 1000
	offs := rand.New(rand.NewPCG(1, 2)).Perm((len(data) + chunk - 1) / chunk)
	for i, k := range append(offs, offs[:10]...) {
		off := k * chunk
		if err := p.WriteAt(data[off:min(off+chunk, len(data))], uint64(off)); err != nil {
			t.Fatal(err)
		}
		if i == len(offs)/2 {
			if err := p.Commit(sum); !errors.Is(err, ErrIncomplete) {
				t.Fatalf("commit half way: %v", err)
			}
		}
	}
	if p.held() != uint64(len(data)) || len(p.Ranges()) != 1 {
		t.Fatalf("held %d in %v", p.held(), p.Ranges())
	}
	if err := p.Commit(sum); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("committed file differs (%v)", err)
	}
	mustNotExist(t, path+Suffix, path+Suffix+RecordSuffix)
}

// TestResumeAfterReopen saves a record half way, closes, and reopens:
// the ranges come back, the rest completes the file, and the hash covers
// the bytes written before the reopen.
func TestResumeAfterReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	data, sum := testData(2*hashChunk + 7)
	id := ID{Token: "t1", SHA256: hex.EncodeToString(sum[:])}
	p, err := Open(path, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.SetSize(int64(len(data)))
	half := len(data) / 2
	p.WriteAt(data[:1000], 0)
	p.WriteAt(data[half:half+5000], uint64(half))
	if p.Unsaved() != 6000 {
		t.Fatalf("unsaved %d", p.Unsaved())
	}
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	p.WriteAt(data[1000:2000], 1000) // written after the save: not recorded
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}

	// Another token for the same file resumes it, by its SHA-256.
	p, err = Open(path, ID{Token: "t2", SHA256: id.SHA256}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []rangeset.Range{{Start: 0, End: 1000}, {Start: uint64(half), End: uint64(half + 5000)}}
	if got := p.Ranges(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] || p.Size() != int64(len(data)) || p.Unsaved() != 0 {
		t.Fatalf("resumed %v size %d", got, p.Size())
	}
	for off := 1000; off < len(data); off += 4096 {
		if err := p.WriteAt(data[off:min(off+4096, len(data))], uint64(off)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Commit(sum); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("resumed file differs")
	}
}

// TestOpenStartsAfreshForAnotherDownload: a record of another token and
// no SHA-256 in common, of another SHA-256, or without its partial file
// is not resumed; the partial file is truncated and the stale record is
// gone, so a later Open cannot resume it over the new bytes.
func TestOpenStartsAfreshForAnotherDownload(t *testing.T) {
	for name, c := range map[string]struct {
		id         ID
		removePart bool
	}{
		"another token":        {id: ID{Token: "other"}},
		"another sha256":       {id: ID{Token: "t", SHA256: "bb"}},
		"partial file removed": {id: ID{Token: "t"}, removePart: true},
	} {
		path := filepath.Join(t.TempDir(), "out")
		p, err := Open(path, ID{Token: "t", SHA256: "aa"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.SetSize(100)
		p.WriteAt(make([]byte, 50), 0)
		if err := p.Save(); err != nil {
			t.Fatal(err)
		}
		p.Close()
		if c.removePart {
			os.Remove(path + Suffix)
		}
		p, err = Open(path, c.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.held() != 0 || p.Size() != -1 || p.SHA256() != c.id.SHA256 {
			t.Errorf("%s: resumed %v, size %d, sha256 %q", name, p.Ranges(), p.Size(), p.SHA256())
		}
		if st, err := os.Stat(path + Suffix); err != nil || st.Size() != 0 {
			t.Errorf("%s: partial file not truncated: %v", name, err)
		}
		mustNotExist(t, path+Suffix+RecordSuffix)
		p.Close()
		// The first download's token, reopened: nothing to resume.
		p, _ = Open(path, ID{Token: "t"}, nil)
		if p.held() != 0 {
			t.Errorf("%s: the stale record was resumed", name)
		}
		p.Close()
	}
}

// TestOpenIgnoresUnreadableRecord starts afresh over a record that is not
// JSON or names ranges past the size.
func TestOpenIgnoresUnreadableRecord(t *testing.T) {
	for _, rec := range []string{"{", `{"token":"t","size":10,"ranges":[[0,20]]}`, `{"token":"t","size":10,"ranges":[[5,5]]}`} {
		path := filepath.Join(t.TempDir(), "out")
		os.WriteFile(path+Suffix, []byte("0123456789"), 0o600)
		os.WriteFile(path+Suffix+RecordSuffix, []byte(rec), 0o600)
		p, err := Open(path, ID{Token: "t"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.held() != 0 {
			t.Errorf("%s: resumed %v", rec, p.Ranges())
		}
		p.Close()
	}
}

// TestChecksumMismatchLeavesDestination: bytes of the wrong hash never
// reach the final name — an existing file there is untouched — and the
// partial file and its record are deleted.
func TestChecksumMismatchLeavesDestination(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(path, []byte("previous"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, sum := testData(5000)
	p, err := Create(path, ID{Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetSize(int64(len(data)))
	data[100] ^= 1
	p.WriteAt(data, 0)
	p.Save()
	if err := p.Commit(sum); !errors.Is(err, ErrChecksum) {
		t.Fatalf("commit: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous" {
		t.Fatalf("destination now %q", got)
	}
	mustNotExist(t, path+Suffix, path+Suffix+RecordSuffix)
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	mustNotExist(t, path+Suffix+RecordSuffix)
}

// TestCommitRenamesOverAndTruncates: Commit replaces an existing file by
// rename (the final name never holds a partial file), and cuts bytes a
// resumed partial file had past the size.
func TestCommitRenamesOverAndTruncates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	os.WriteFile(path, []byte("previous contents, longer than the new"), 0o600)
	os.WriteFile(path+Suffix, bytes.Repeat([]byte{'x'}, 64), 0o600)
	data, sum := testData(10)
	p, err := Open(path, ID{Token: "t"}, nil) // no record: starts afresh
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path + Suffix)
	p.SetSize(10)
	p.WriteAt(data, 0)
	if err := p.Commit(sum); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("%s is not the renamed partial file (%v)", path, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatalf("got %q", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyFile commits a file of no bytes.
func TestEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	p, err := Create(path, ID{Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetSize(0)
	if err := p.Commit(sha256.Sum256(nil)); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Fatal(err)
	}
}

// held returns how many bytes p holds.
func (p *File) held() uint64 { return p.have.Total() }
