package embed

import (
	"slices"
	"testing"
)

// TestConcepts: a glossary concept the text mentions, in either language,
// comes with all its words and those the text says; words outside the
// glossary give none.
func TestConcepts(t *testing.T) {
	got := Concepts("如何配置数据库？")
	if len(got) != 2 {
		t.Fatalf("Concepts = %v", got)
	}
	db := got[0]
	if !slices.Contains(db.Words, "database") {
		db = got[1]
	}
	if !slices.Contains(db.Words, "database") || !slices.Equal(db.Said, []string{"数据库"}) {
		t.Errorf("database concept %+v", db)
	}
	if got := Concepts("open the web client"); len(got) < 2 {
		t.Errorf("web client: %v", got)
	}
	if got := Concepts("sourdough bread"); len(got) != 0 {
		t.Errorf("outside the glossary: %v", got)
	}
}

// TestConceptsCountEachPlaceOnce: a term inside a longer term of another
// entry is not a concept of its own (the review found "错误日志" counted
// as error log, error and log: three concepts for one), and entries
// said at the same place are one concept.
func TestConceptsCountEachPlaceOnce(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // a word of each concept expected, in any order
	}{
		{"找一下错误日志", []string{"error log"}},
		{"where is the error log", []string{"error log"}},
		{"错误日志和内存", []string{"error log", "memory"}},
		{"错误和日志", []string{"error", "log"}},
		{"add a user", []string{"account"}},
	} {
		got := Concepts(c.text)
		if len(got) != len(c.want) {
			t.Errorf("Concepts(%q) = %v, want %d concepts", c.text, got, len(c.want))
			continue
		}
		for _, w := range c.want {
			if !slices.ContainsFunc(got, func(c Concept) bool { return slices.Contains(c.Words, w) }) {
				t.Errorf("Concepts(%q) = %v, want one with %q", c.text, got, w)
			}
		}
	}
	if got := Concepts("add a user"); !slices.Contains(got[0].Words, "用户") || !slices.Contains(got[0].Words, "账号") {
		t.Errorf("user: %v", got)
	}
}
