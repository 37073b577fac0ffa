package index

import (
	"context"
	"slices"
	"sort"
	"strings"

	"opsassist/storage/bm25"
	"opsassist/storage/embed"
)

// Hybrid search ranks files twice, by their chunks' vectors and by BM25
// over their chunks' text, and adds the two rankings up by reciprocal
// rank fusion: a file's place r (0-based) in a ranking is worth
// weight/(rrfK+r+1). File-name boosts are added on top in hybrid mode.

// rankedFile is a file's place in one ranking, with the chunk that earned
// it.
type rankedFile struct {
	file  string  // file id
	chunk string  // chunk id
	sim   float32 // the chunk's cosine similarity (vector ranking only)
}

// vectorRanking ranks the files of parts by their most similar chunk:
// each partition contributes its candidates best chunks, the merged list
// is ordered by similarity, and each file keeps its first (best) place.
// x.mu must be held for reading.
func vectorRanking(ctx context.Context, parts []*partition, qvec []float32) ([]rankedFile, error) {
	var hits []scanHit
	for _, p := range parts {
		n := min(candidates, p.chunks)
		if n == 0 {
			continue
		}
		res, err := scan(ctx, p, qvec, n)
		if err != nil {
			return nil, err
		}
		hits = append(hits, res...)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].sim > hits[j].sim })
	ranked := make([]rankedFile, 0, len(hits))
	for _, h := range hits {
		ranked = append(ranked, rankedFile{file: h.m.info.ID, chunk: chunkID(h.m.info.ID, h.chunk), sim: h.sim})
	}
	return firstPerFile(ranked), nil
}

// keywordRanking ranks the files of parts by the BM25 score of their best
// chunk for text, expanded with the glossary's terms (embed.Expand).
// x.mu must be held for reading.
func keywordRanking(parts []*partition, text string) []rankedFile {
	kq := text
	if exp := embed.Expand(text); len(exp) > 0 {
		kq += " " + strings.Join(exp, " ")
	}
	var hits []bm25.Hit
	for _, p := range parts {
		hits = append(hits, p.bm.Search(kq, candidates, nil)...)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	ranked := make([]rankedFile, 0, len(hits))
	for _, h := range hits {
		fid, _ := splitChunkID(h.ID)
		ranked = append(ranked, rankedFile{file: fid, chunk: h.ID})
	}
	return firstPerFile(ranked)
}

// firstPerFile keeps the first place of each file in a ranking ordered
// best first, so that places count files, not chunks.
func firstPerFile(r []rankedFile) []rankedFile {
	seen := map[string]bool{}
	out := r[:0]
	for _, f := range r {
		if seen[f.file] {
			continue
		}
		seen[f.file] = true
		out = append(out, f)
	}
	return out
}

// rrf is what place rank (0-based) in a ranking of the given weight adds
// to a file's fused score.
func rrf(rank int, weight float64) float64 { return weight / float64(rrfK+rank+1) }

// candidate is a file found by some stage, with its fused score so far.
type candidate struct {
	chunk  string // best chunk id; "" for a file found by name without chunks
	sim    float32
	hasSim bool // sim comes from the vector ranking
	score  float64
	// named: the query names the file (a file-name boost), by name.
	named bool
	name  nameHit
}

// fusion collects the candidates of one search by file id.
type fusion map[string]*candidate

// get returns the candidate for a file, adding it if it is new.
func (f fusion) get(fileID string) *candidate {
	c := f[fileID]
	if c == nil {
		c = &candidate{}
		f[fileID] = c
	}
	return c
}

// addVector adds the vector ranking, weight 1. It runs first: each
// file's best chunk and similarity come from it.
func (f fusion) addVector(r []rankedFile) {
	for rank, h := range r {
		c := f.get(h.file)
		c.chunk, c.sim, c.hasSim = h.chunk, h.sim, true
		c.score += rrf(rank, 1)
	}
}

// addKeyword adds the keyword ranking, weighted keywordWeight. A file the
// vector ranking found keeps its chunk.
func (f fusion) addKeyword(r []rankedFile) {
	for rank, h := range r {
		c := f.get(h.file)
		if c.chunk == "" {
			c.chunk = h.chunk
		}
		c.score += rrf(rank, keywordWeight)
	}
}

// addNameBoosts adds the boost of each file of parts whose name text
// mentions (nameBoosts). x.mu must be held for reading.
func (x *Index) addNameBoosts(f fusion, parts []*partition, text string) {
	for fid, nh := range x.nameBoosts(text) {
		m := x.files[fid]
		if !slices.Contains(parts, x.parts[m.part]) {
			continue
		}
		// A file without chunks (binary, skipped) is still found by
		// its name, without an excerpt.
		c := f.get(fid)
		if c.chunk == "" && len(m.positions) > 0 {
			c.chunk = chunkID(fid, 0)
		}
		c.score += nh.boost
		c.named, c.name = true, nh
	}
}

// hits turns the fused candidates into hits, best first. A hit's
// similarity is its chunk's, computed here for a chunk the vector ranking
// did not score. x.mu must be held for reading.
func (x *Index) hits(f fusion, qvec []float32) []Hit {
	hits := make([]Hit, 0, len(f))
	for fid, c := range f {
		m := x.files[fid]
		if m == nil {
			continue
		}
		h := Hit{File: m.info, Score: c.score, Similarity: c.sim, NameMatch: c.named, name: c.name, chunk: -1}
		_, n := splitChunkID(c.chunk)
		if n >= 0 && n < len(m.positions) {
			h.chunk = n
			h.Position = m.positions[n]
			h.Chunk = m.texts[n]
			if !c.hasSim && nonZero(qvec) {
				h.Similarity = m.vecs.dot(n, qvec)
			}
		}
		hits = append(hits, h)
	}
	orderHits(hits)
	return hits
}

// orderHits orders hits by fused score, then similarity, then path.
func orderHits(hits []Hit) {
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].Similarity != hits[j].Similarity {
			return hits[i].Similarity > hits[j].Similarity
		}
		return hits[i].File.Path < hits[j].File.Path
	})
}
