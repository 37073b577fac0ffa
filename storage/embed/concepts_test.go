package embed

import (
	"slices"
	"testing"
)

// TestConcepts: a glossary concept the text mentions, in either language,
// comes with all its words; words outside the glossary give none.
func TestConcepts(t *testing.T) {
	got := Concepts("如何配置数据库？")
	if len(got) != 2 || !slices.Contains(got[0], "database") && !slices.Contains(got[1], "database") {
		t.Fatalf("Concepts = %v", got)
	}
	if got := Concepts("open the web client"); len(got) < 2 {
		t.Errorf("web client: %v", got)
	}
	if got := Concepts("sourdough bread"); len(got) != 0 {
		t.Errorf("outside the glossary: %v", got)
	}
}
