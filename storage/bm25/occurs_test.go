package bm25

import (
	"strings"
	"testing"
)

// TestOccursIn: a term counts only in the documents first..last, only
// more often than the given base, only while the document is live, and
// unknown or reversed bounds find nothing; single and listed postings
// alike, before and after compaction.
func TestOccursIn(t *testing.T) {
	x := New()
	x.Add("a#0", "alpha beta")
	x.Add("b#0", "gamma")     // gamma: one posting, inline
	x.Add("b#1", "beta beta") // beta: a list
	x.Add("c#0", "delta beta")
	for _, c := range []struct {
		term, first, last string
		more              int
		want              bool
	}{
		{"gamma", "b#0", "b#1", 0, true},
		{"gamma", "c#0", "c#0", 0, false},
		{"beta", "b#0", "b#1", 0, true},
		{"beta", "b#0", "b#1", 1, true}, // twice in b#1
		{"beta", "b#0", "b#1", 2, false},
		{"beta", "b#0", "b#0", 0, false},
		{"alpha", "b#0", "c#0", 0, false},
		{"delta", "a#0", "c#0", 0, true},
		{"nothing", "a#0", "c#0", 0, false},
		{"beta", "zz", "c#0", 0, false},
		{"beta", "c#0", "a#0", 0, false},
	} {
		if got := x.OccursIn(c.term, c.first, c.last, c.more); got != c.want {
			t.Errorf("OccursIn(%q, %q, %q, %d) = %v, want %v", c.term, c.first, c.last, c.more, got, c.want)
		}
	}
	x.Delete("b#1") // dead slot still in the postings
	if x.OccursIn("beta", "b#0", "c#0", 1) {
		t.Error("a deleted document's term counted")
	}
	if !x.OccursIn("beta", "b#0", "c#0", 0) {
		t.Error("c#0's beta lost")
	}
	x.Trim() // compacts
	if !x.OccursIn("gamma", "b#0", "c#0", 0) || x.OccursIn("beta", "b#0", "b#0", 0) {
		t.Error("wrong after compaction")
	}
}

// TestDocFreq: how many documents have a term; none for an unknown one.
func TestDocFreq(t *testing.T) {
	x := New()
	x.Add("a", "config database")
	x.Add("b", "config config web")
	x.Add("c", "配置 web")
	for term, want := range map[string]int{"config": 2, "database": 1, "web": 2, "配置": 1, "nope": 0} {
		if got := x.DocFreq(term); got != want {
			t.Errorf("DocFreq(%q) = %d, want %d", term, got, want)
		}
	}
}

// TestDocsAndDocsIn: Docs lists the live documents of a term ascending,
// so two terms' documents can be counted together; DocsIn lists those
// of a range, above a frequency, at most limit.
func TestDocsAndDocsIn(t *testing.T) {
	x := New()
	x.Add("a#0", "alpha beta")
	x.Add("b#0", "gamma")
	x.Add("b#1", "beta beta")
	x.Add("b#2", "beta")
	x.Add("c#0", "delta beta")
	if got := x.Docs("beta"); len(got) != 4 || got[0] >= got[1] {
		t.Errorf("Docs(beta) = %v", got)
	}
	if got := x.Docs("gamma"); len(got) != 1 {
		t.Errorf("Docs(gamma) = %v", got)
	}
	if got := x.Docs("nothing"); len(got) != 0 {
		t.Errorf("Docs(nothing) = %v", got)
	}
	for _, c := range []struct {
		term, first, last string
		more, limit       int
		want              string
	}{
		{"beta", "b#0", "b#2", 0, 10, "b#1 b#2"},
		{"beta", "b#0", "b#2", 1, 10, "b#1"},
		{"beta", "a#0", "c#0", 0, 2, "a#0 b#1"},
		{"gamma", "b#0", "b#2", 0, 10, "b#0"},
		{"gamma", "b#1", "b#2", 0, 10, ""},
		{"beta", "c#0", "a#0", 0, 10, ""},
		{"beta", "zz", "c#0", 0, 10, ""},
		{"beta", "a#0", "c#0", 0, 0, ""},
	} {
		got := strings.Join(x.DocsIn(c.term, c.first, c.last, c.more, c.limit), " ")
		if got != c.want {
			t.Errorf("DocsIn(%q, %q, %q, %d, %d) = %q, want %q", c.term, c.first, c.last, c.more, c.limit, got, c.want)
		}
	}
	x.Delete("b#1")
	if got := x.Docs("beta"); len(got) != 3 {
		t.Errorf("after delete: Docs(beta) = %v", got)
	}
	if got := x.DocsIn("beta", "b#0", "b#2", 0, 10); len(got) != 1 || got[0] != "b#2" {
		t.Errorf("after delete: DocsIn = %v", got)
	}
}
