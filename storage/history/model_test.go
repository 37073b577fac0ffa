package history

import (
	"testing"
	"time"
)

// TestModelPersistsWithConversation: a model chosen before the first
// write rides on the create record, a later choice on a model record,
// and both survive a reopen; choosing a model alone saves nothing.
func TestModelPersistsWithConversation(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := s.New(t0)
	if err := a.SetModel("qwen", t0); err != nil {
		t.Fatal(err)
	}
	if a.Saved() || len(s.List()) != 0 {
		t.Fatal("choosing a model saved an empty conversation")
	}
	if err := a.Append(msg("user", "q", 1)); err != nil {
		t.Fatal(err)
	}
	b := s.New(t0)
	if err := b.Append(msg("user", "q2", 2)); err != nil {
		t.Fatal(err)
	}
	if err := b.SetModel("builtin", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ga, _ := s2.Get(a.ID())
	gb, _ := s2.Get(b.ID())
	if ga.Model() != "qwen" || gb.Model() != "builtin" || gb.Summary().Model != "builtin" {
		t.Fatalf("models after reopen: %q %q %+v", ga.Model(), gb.Model(), gb.Summary())
	}
}
