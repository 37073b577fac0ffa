package index

import "testing"

func TestHitRelevant(t *testing.T) {
	for _, c := range []struct {
		h    Hit
		min  float64
		want bool
	}{
		{Hit{Similarity: 0.2, KeywordMatch: true}, 0.07, true},
		{Hit{Similarity: 0.07, KeywordMatch: true}, 0.07, true},
		{Hit{Similarity: 0.05, KeywordMatch: true}, 0.07, false},
		{Hit{Similarity: -0.1, KeywordMatch: true}, 0.07, false},
		// A passage sharing no content word with the query is not
		// relevant, however its vector scores ("how do I configure the
		// database?" found passages about neither).
		{Hit{Similarity: 0.23}, 0.07, false},
		{Hit{Similarity: 0.01, NameMatch: true}, 0.07, true},
		{Hit{Similarity: 0}, 0, true},
	} {
		if got := c.h.Relevant(c.min); got != c.want {
			t.Errorf("%+v.Relevant(%v) = %v, want %v", c.h, c.min, got, c.want)
		}
	}
}

// TestQueryConcepts: stop and question words are no concepts; a
// glossary concept is one, with its translations, so a Chinese question
// matches English text.
func TestQueryConcepts(t *testing.T) {
	words := func(q string) map[string]bool {
		out := map[string]bool{}
		for _, c := range queryConcepts(q) {
			for _, f := range c.forms {
				out[f.word] = true
			}
		}
		return out
	}
	en := words("how do I configure the database?")
	if en["how"] || en["the"] || en["do"] || !en["database"] || !en["数据库"] || !en["configure"] {
		t.Errorf("en concepts %v", en)
	}
	zh := words("如何配置数据库？")
	if zh["如何"] || !zh["database"] || !zh["config"] {
		t.Errorf("zh concepts %v", zh)
	}
	if !hasAny("database settings", queryConcepts("如何配置数据库？")) {
		t.Error("the translation does not match")
	}
	if hasAny("How the thing is done, and what I do with it.", queryConcepts("how do I configure the database?")) {
		t.Error("stop words matched")
	}
}
