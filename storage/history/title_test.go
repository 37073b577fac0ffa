package history

import (
	"testing"
	"time"
)

// TestSetTitleSurvivesReopen proves a user's title replaces the derived
// one, is replayed from the file, and "" restores the derived title.
func TestSetTitleSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := s.New(t0)
	if err := c.Append(msg("user", "first question", 1)); err != nil {
		t.Fatal(err)
	}
	if err := c.SetTitle("磁盘排查", t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := c.Summary().Title; got != "磁盘排查" {
		t.Fatalf("title %q", got)
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := s2.Get(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := c2.Summary().Title; got != "磁盘排查" {
		t.Fatalf("title after reopen %q", got)
	}
	if s2.Damaged() != 0 {
		t.Fatalf("title record counted as damage: %d", s2.Damaged())
	}
	if err := c2.SetTitle("", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	s3, _ := Open(dir, nil)
	c3, _ := s3.Get(c.ID())
	if got := c3.Summary().Title; got != "first question" {
		t.Fatalf("derived title not restored: %q", got)
	}
}

// TestSetTitleSavesNewConversation proves naming a new, empty
// conversation persists it, and naming a deleted one fails.
func TestSetTitleSavesNewConversation(t *testing.T) {
	s, _ := Open(t.TempDir(), nil)
	c := s.New(t0)
	if err := c.SetTitle("later", t0); err != nil {
		t.Fatal(err)
	}
	if !c.Saved() || len(s.List()) != 1 || s.List()[0].Title != "later" {
		t.Fatalf("not saved: %+v", s.List())
	}
	if err := s.Delete(c.ID()); err != nil {
		t.Fatal(err)
	}
	if err := c.SetTitle("again", t0); err == nil {
		t.Fatal("renamed a deleted conversation")
	}
}

// TestMatchesReadsWithinBudget: Matches finds text in the title or in
// user and assistant messages, ignoring case, never reads past budget,
// and skips tool output.
func TestMatchesReadsWithinBudget(t *testing.T) {
	s, _ := Open(t.TempDir(), nil)
	c := s.New(t0)
	c.Append(msg("user", "0123456789", 1), Message{Role: "tool", Content: "secret needle", Time: t0}, msg("assistant", "The Needle", 2))
	if ok, n := c.Matches("needle", 1<<20); !ok || n != 20 {
		t.Fatalf("match %v read %d", ok, n)
	}
	if ok, n := c.Matches("needle", 15); ok || n != 15 {
		t.Fatalf("over budget: match %v read %d", ok, n)
	}
	c.SetTitle("磁盘 Disk", t0)
	if ok, n := c.Matches("disk", 0); !ok || n != 0 {
		t.Fatalf("title: match %v read %d", ok, n)
	}
}
