package retrieval

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"opsassist/storage/index"
)

// Parts of the eval's cases (Split): the floor is chosen on Train, and
// Heldout is only reported.
const (
	PartAll     = "all"
	PartTrain   = "train"
	PartHeldout = "heldout"
)

// Split returns the cases of one part, by a rule fixed before any
// tuning: the cases at even 0-based lines are the train part, those at
// odd lines held out. PartAll (or "") returns every case.
func Split(cases []Case, part string) ([]Case, error) {
	switch part {
	case "", PartAll:
		return cases, nil
	case PartTrain, PartHeldout:
	default:
		return nil, fmt.Errorf("retrieval: unknown part %q (all, train or heldout)", part)
	}
	var out []Case
	for i, c := range cases {
		if (i%2 == 0) == (part == PartTrain) {
			out = append(out, c)
		}
	}
	return out, nil
}

// ChooseFloor is the relevance floor's rule (index.DefaultMinScore): the
// highest floor, in steps of 0.01, under which at least keep (0.95) of
// the cases' wanted files still count as relevant. Only wanted files
// found in the hybrid top 10 that share a content word with their query
// (or that the query names) are counted: a floor cannot bring back the
// others. It returns the floor and how many of the n counted files it
// keeps.
func ChooseFloor(ctx context.Context, idx *index.Index, cases []Case, keep float64) (floor float64, kept, n int, err error) {
	var sims []float64
	for _, c := range cases {
		hits, err := idx.Search(ctx, index.Query{Text: c.Query, Scope: index.QuerySystem, TopK: depth, Mode: index.ModeHybrid})
		if err != nil {
			return 0, 0, 0, err
		}
		for _, h := range hits {
			if h.File.Name != filepath.Base(c.WantFile) {
				continue
			}
			switch {
			case h.NameMatch:
				sims = append(sims, math.Inf(1))
			case h.KeywordMatch:
				sims = append(sims, float64(h.FloorSimilarity()))
			}
			break
		}
	}
	n = len(sims)
	count := func(f float64) int {
		k := 0
		for _, s := range sims {
			if s >= f {
				k++
			}
		}
		return k
	}
	for step := 100; step >= 0; step-- {
		f := float64(step) / 100
		if k := count(f); n > 0 && float64(k) >= keep*float64(n) {
			return f, k, n, nil
		}
	}
	return 0, n, n, nil
}
