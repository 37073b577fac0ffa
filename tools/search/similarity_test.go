package search

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"opsassist/storage/index"
	"opsassist/tools"
)

// TestSimilarityAdmitsTheHit: a file admitted by its closest passage
// but shown by another, the one with the query's words, is shown with
// the score that admitted it — it was shown with the shown passage's
// own, under the floor (guide.md … 0.05 under a floor of 0.11) — and,
// that passage's similarity being low, as possibly related (not
// Strong).
func TestSimilarityAdmitsTheHit(t *testing.T) {
	ctx := context.Background()
	x := newTestIndex(t)
	put := func(id, name string, texts ...string) {
		t.Helper()
		x.put(t, index.File{ID: id, Name: name, Path: "/d/" + name, Scope: index.ScopeSystem},
			texts, func(i int) string { return fmt.Sprintf("part %d", i+1) })
	}
	// The closest passage has only the query's common words (every
	// file says them); the database is in the second.
	put("guide", "guide.md",
		"Edit the config, restart the server and reload the service after each change.",
		"Backups run nightly at two; old archives rotate weekly and the database dumps go to cold storage on tape.")
	for i := range 10 {
		put(fmt.Sprintf("f%d", i), fmt.Sprintf("f%d.md", i), fmt.Sprintf("Topic %d: edit the config of the server, restart and reload it; item%d.", i, i))
	}
	q := "edit config restart server reload database"
	hits, err := x.Search(ctx, index.Query{Text: q, Scope: index.QuerySystem, TopK: 20})
	if err != nil {
		t.Fatal(err)
	}
	var guide index.Hit
	for _, h := range hits {
		if h.File.Name == "guide.md" {
			guide = h
		}
	}
	// The premise: the passage shown is under the floor, the file's
	// closest passage over it.
	if guide.Position != "part 2" || float64(guide.Similarity) >= index.DefaultMinScore || float64(guide.FloorSimilarity()) < index.DefaultMinScore {
		t.Fatalf("premise: guide.md %q similarity %.3f, file's %.3f", guide.Position, guide.Similarity, guide.FloorSimilarity())
	}
	raw, _ := json.Marshal(map[string]any{"query": q})
	res, err := New(Config{Index: x.Index, MinScore: index.DefaultMinScore}).Run(ctx, &tools.Call{}, raw)
	if err != nil {
		t.Fatal(err)
	}
	out := res.(Output)
	if out.Total != 1 || out.Results[0].Filename != "guide.md" {
		t.Fatalf("%+v", out)
	}
	r := out.Results[0]
	if r.Similarity < index.DefaultMinScore || r.Similarity != math.Round(float64(guide.FloorSimilarity())*1000)/1000 || r.Position != "part 2" || r.Strong {
		t.Errorf("shown %+v, want the file's similarity %.3f, its database passage, not strong", r, guide.FloorSimilarity())
	}
}
