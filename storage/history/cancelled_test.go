package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCancelledMarkerRoundTrips checks the cancelled marker survives a
// reopen, and that messages without it are written as before (no field),
// so files of older versions load and older versions load new files.
func TestCancelledMarkerRoundTrips(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := s.New(t0)
	partial := msg("assistant", "CPU 使用", 2)
	partial.Cancelled = true
	if err := c.Append(msg("user", "CPU?", 1), partial, msg("user", "again", 3), msg("assistant", "done", 4)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, c.ID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"cancelled"`); n != 1 {
		t.Fatalf("%d cancelled fields in the file, want 1:\n%s", n, b)
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s2.Get(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	ms := got.Messages()
	if len(ms) != 4 || !ms[1].Cancelled || ms[1].Content != "CPU 使用" || ms[0].Cancelled || ms[3].Cancelled {
		t.Fatalf("messages %+v", ms)
	}
}

// TestOldFileLoadsUncancelled loads a conversation line written before
// the marker existed.
func TestOldFileLoadsUncancelled(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, nil)
	c := s.New(t0)
	c.Append(msg("user", "q", 1))
	path := filepath.Join(dir, c.ID()+".jsonl")
	old := `{"type":"message","time":"2026-11-22T08:02:00Z","message":{"role":"assistant","content":"old answer","time":"2026-11-22T08:02:00Z"}}` + "\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(old)
	f.Close()
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s2.Get(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	ms := got.Messages()
	if len(ms) != 2 || ms[1].Content != "old answer" || ms[1].Cancelled {
		t.Fatalf("messages %+v", ms)
	}
}
