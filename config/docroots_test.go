package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// developerNotes are the pages under docs/ written for opsassist's
// developers, not its users: semantic_search does not answer from them.
var developerNotes = []string{"docs/architecture.md", "docs/benchmarks.md", "docs/evals.md", "docs/search.md", "docs/udpimpair.md"}

// TestDefaultDocRootsAreUserDocs: the default system documents exist and
// are the user documentation: every page under docs/ is either under a
// default root or a developer note (a new page must choose), and no
// developer note is indexed (answers quoted docs/evals.md's walk-through
// notes to users while the default was the whole docs/ directory).
func TestDefaultDocRootsAreUserDocs(t *testing.T) {
	roots := DefaultDocRoots()
	if !slices.Equal(Defaults().Search.DocRoots, roots) {
		t.Fatalf("Defaults().Search.DocRoots = %v, want DefaultDocRoots() %v", Defaults().Search.DocRoots, roots)
	}
	under := func(page string) bool {
		for _, r := range roots {
			if page == r || filepath.Dir(page) == r {
				return true
			}
		}
		return false
	}
	for _, r := range roots {
		if _, err := os.Stat(filepath.Join("..", r)); err != nil {
			t.Errorf("default doc root %s: %v", r, err)
		}
	}
	pages, _ := filepath.Glob("../docs/*.md")
	sub, _ := filepath.Glob("../docs/*/*.md")
	pages = append(pages, sub...)
	if len(pages) == 0 {
		t.Fatal("no pages under docs/")
	}
	for _, p := range pages {
		page, _ := filepath.Rel("..", p)
		page = filepath.ToSlash(page)
		dev := slices.Contains(developerNotes, page)
		switch {
		case dev && under(page):
			t.Errorf("%s is a developer note, yet a default doc root holds it", page)
		case !dev && !under(page):
			t.Errorf("%s is neither under a default doc root nor a developer note: add it to DefaultDocRoots (for users) or developerNotes", page)
		}
	}
}
