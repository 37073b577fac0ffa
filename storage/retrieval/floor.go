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

// ChooseStrong is the rule for index.DefaultStrongScore, fixed before
// looking at any number: the lowest similarity, in steps of 0.01, at
// which the cases whose top hybrid hit (over index.DefaultMinScore)
// reaches it have the wanted file first in at least precision (0.9) of
// them, and at least 5 such cases (the top hit: the most similar
// relevant one of the top 3, as answers present it). A hit at or over it is presented as
// relevant; weaker hits only as possibly related. It returns the level
// and, at it, how many top hits reach it (n) and how many of those are
// right.
func ChooseStrong(ctx context.Context, idx *index.Index, cases []Case, precision float64) (strong float64, right, n int, err error) {
	type top struct {
		sim float64
		ok  bool
	}
	var tops []top
	for _, c := range cases {
		hits, err := idx.Search(ctx, index.Query{Text: c.Query, Scope: index.QuerySystem, TopK: depth, Mode: index.ModeHybrid})
		if err != nil {
			return 0, 0, 0, err
		}
		// The hit presented first: the most similar relevant one of the
		// top 3 (semantic_search's default top_k; answers sort by it).
		var best *index.Hit
		for i := range hits[:min(3, len(hits))] {
			if h := &hits[i]; h.Relevant(index.DefaultMinScore) && (best == nil || h.Similarity > best.Similarity) {
				best = h
			}
		}
		if best == nil {
			continue
		}
		tops = append(tops, top{float64(best.Similarity), best.File.Name == filepath.Base(c.WantFile)})
	}
	for step := 0; step <= 100; step++ {
		s := float64(step) / 100
		right, n = 0, 0
		for _, t := range tops {
			if t.sim >= s {
				n++
				if t.ok {
					right++
				}
			}
		}
		if n >= 5 && float64(right) >= precision*float64(n) {
			return s, right, n, nil
		}
	}
	return 1, 0, 0, nil
}
