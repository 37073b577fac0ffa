package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnerPersisted: the owner is written with the create record and
// comes back after a restart; a file without one has owner "".
func TestOwnerPersisted(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := s.NewOwned(t0, "p-alice")
	if err := a.Append(msg("user", "hi", 1)); err != nil {
		t.Fatal(err)
	}
	old := s.New(t0)
	if err := old.Append(msg("user", "legacy", 1)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, a.ID()+".jsonl"))
	if !strings.Contains(string(b), `"owner":"p-alice"`) {
		t.Fatalf("owner not recorded: %s", b)
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{a.ID(): "p-alice", old.ID(): ""} {
		c, err := s2.Get(id)
		if err != nil || c.Owner() != want || c.Summary().Owner != want {
			t.Fatalf("%s: owner %q, want %q (%v)", id, c.Owner(), want, err)
		}
	}
}

// TestResolveVisibleHidesOthers: a conversation the filter rejects is not
// found by id or prefix and does not make a prefix ambiguous.
func TestResolveVisibleHidesOthers(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := s.NewOwned(t0, "alice")
	a.Append(msg("user", "a", 1))
	b := s.NewOwned(t0, "bob")
	b.Append(msg("user", "b", 1))
	onlyBob := func(o string) bool { return o == "bob" }
	if _, err := s.ResolveVisible(a.ID(), onlyBob); !errors.Is(err, ErrNotFound) {
		t.Fatalf("alice's conversation by id: %v", err)
	}
	if _, err := s.ResolveVisible(a.ID()[:8], onlyBob); !errors.Is(err, ErrNotFound) {
		t.Fatalf("alice's conversation by prefix: %v", err)
	}
	if c, err := s.ResolveVisible(b.ID()[:8], onlyBob); err != nil || c != b {
		t.Fatalf("bob's own: %v", err)
	}
	// The empty prefix shared by both is unique among bob's.
	if c, err := s.ResolveVisible(commonPrefix(a.ID(), b.ID(), MinPrefix), onlyBob); err == nil && c != b {
		t.Fatal("resolved to alice's conversation")
	}
}

// commonPrefix returns the longer of the ids' common prefix and the first
// n characters of a.
func commonPrefix(a, b string, n int) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:max(i, n)]
}
