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

// TestContentTerms: stop and question words do not count as shared;
// glossary terms do, so a Chinese question matches English text.
func TestContentTerms(t *testing.T) {
	terms := contentTerms("how do I configure the database?")
	if terms["how"] || terms["the"] || terms["do"] || !terms["database"] {
		t.Fatalf("terms %v", terms)
	}
	if sharesTerm("How the thing is done, and what I do with it.", terms) {
		t.Error("stop words matched")
	}
	if !sharesTerm("The database lives on db1.", terms) {
		t.Error("database not matched")
	}
	if zh := contentTerms("如何配置数据库？"); zh["如何"] || !sharesTerm("database settings", zh) && !sharesTerm("数据库配置", zh) {
		t.Errorf("zh terms %v", zh)
	}
}
