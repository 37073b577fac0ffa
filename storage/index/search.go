package index

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"opsassist/storage/bm25"
	"opsassist/storage/embed"
)

// Search modes.
const (
	// ModeHybrid fuses vector and keyword ranks, with the file-name boost.
	ModeHybrid = ""
	// ModeVector ranks by cosine similarity only.
	ModeVector = "vector"
	// ModeKeyword ranks by BM25 only.
	ModeKeyword = "keyword"
)

// Query scopes.
const (
	QueryAll     = "all"
	QuerySystem  = ScopeSystem
	QueryUploads = ScopeUploads
)

// Retrieval parameters.
const (
	// candidates is how many chunks each ranking contributes to fusion.
	candidates = 50
	// rrfK is the reciprocal rank fusion constant. A small k lets the
	// first places of each ranking count for more than the usual 60; with
	// keywordWeight it was chosen on testdata/evals (a plateau: k 10–20,
	// weight 1.25–1.5 all reach recall@3 ≥ 0.95 there).
	rrfK = 10
	// keywordWeight weighs the BM25 ranking against the vector ranking
	// (1): exact identifiers, numbers and host names in ops questions are
	// strong evidence.
	keywordWeight = 1.25
	// exactNameBoost puts a file whose full name the query mentions above
	// every file found by content alone.
	exactNameBoost = 1.0
	// stemBoost nudges a file whose name without its extension the query
	// mentions ("nginx" for nginx.conf): about a third of a first place,
	// enough to break near ties, not to outrank content evidence.
	stemBoost = 1.0 / 60
)

// Query is a search request.
type Query struct {
	// Text is the query.
	Text string
	// Scope is QueryAll (default), QuerySystem or QueryUploads.
	Scope string
	// ConversationID selects whose uploads are searched; without it no
	// upload is.
	ConversationID string
	// TopK is the number of files returned (default 3).
	TopK int
	// Mode is ModeHybrid (default), ModeVector or ModeKeyword.
	Mode string
}

// Hit is one file found, with its best-matching chunk.
type Hit struct {
	File FileInfo
	// Chunk is the matching chunk's text.
	Chunk string
	// Position is the chunk's position in the file.
	Position string
	// Similarity is the cosine similarity of the query and the chunk.
	Similarity float32
	// Score is the fused ranking score.
	Score float64
}

// QueryEmbedder is implemented by embedders that embed queries
// differently from documents (the builtin embedder expands queries with
// its glossary).
type QueryEmbedder interface {
	EmbedQuery(text string) []float32
}

// Search returns up to q.TopK files matching q.Text, best first, each
// with its best chunk.
//
// While the index loads (Start), Search fails at once with ErrLoading.
func (x *Index) Search(ctx context.Context, q Query) ([]Hit, error) {
	if !x.Loaded() {
		return nil, ErrLoading
	}
	if x.loadErr != nil {
		return nil, x.loadErr
	}
	if q.TopK <= 0 {
		q.TopK = 3
	}
	if q.Scope == "" {
		q.Scope = QueryAll
	}
	var qvec []float32
	if q.Mode != ModeKeyword {
		v, err := x.embedQuery(ctx, q.Text)
		if err != nil {
			return nil, fmt.Errorf("index: embedding query: %w", err)
		}
		qvec = unit(v)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	var parts []*partition
	if q.Scope == QueryAll || q.Scope == QuerySystem {
		if p := x.parts[ScopeSystem]; p != nil {
			parts = append(parts, p)
		}
	}
	if (q.Scope == QueryAll || q.Scope == QueryUploads) && q.ConversationID != "" {
		if p := x.parts[partName(ScopeUploads, q.ConversationID)]; p != nil {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	type cand struct {
		chunk  string // best chunk id
		sim    float32
		hasSim bool
		score  float64
	}
	byFile := map[string]*cand{}
	get := func(fileID string) *cand {
		c := byFile[fileID]
		if c == nil {
			c = &cand{}
			byFile[fileID] = c
		}
		return c
	}
	if q.Mode != ModeKeyword && nonZero(qvec) {
		type vhit struct {
			m   *fileMeta
			sim float32
			n   int
		}
		var hits []vhit
		for _, p := range parts {
			n := min(candidates, p.chunks)
			if n == 0 {
				continue
			}
			res, err := scan(ctx, p, qvec, n)
			if err != nil {
				return nil, err
			}
			for _, r := range res {
				hits = append(hits, vhit{r.m, r.sim, r.chunk})
			}
		}
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].sim > hits[j].sim })
		rank := 0
		for _, h := range hits {
			c := get(h.m.info.ID)
			if c.hasSim {
				continue // the file's best chunk came first
			}
			c.chunk, c.sim, c.hasSim = chunkID(h.m.info.ID, h.n), h.sim, true
			c.score += 1.0 / float64(rrfK+rank+1)
			rank++
		}
	}
	if q.Mode != ModeVector {
		var hits []bm25.Hit
		kq := q.Text
		if exp := embed.Expand(q.Text); len(exp) > 0 {
			kq += " " + strings.Join(exp, " ")
		}
		for _, p := range parts {
			hits = append(hits, p.bm.Search(kq, candidates, nil)...)
		}
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
		seen := map[string]bool{}
		rank := 0
		for _, h := range hits {
			fid, _ := splitChunkID(h.ID)
			if seen[fid] {
				continue
			}
			seen[fid] = true
			c := get(fid)
			if c.chunk == "" {
				c.chunk = h.ID
			}
			c.score += keywordWeight / float64(rrfK+rank+1)
			rank++
		}
	}
	if q.Mode == ModeHybrid {
		for fid, boost := range x.nameBoosts(q.Text) {
			m := x.files[fid]
			p := x.parts[m.part]
			if !containsPart(parts, p) {
				continue
			}
			// A file without chunks (binary, skipped) is still found by
			// its name, without an excerpt.
			c := get(fid)
			if c.chunk == "" && len(m.positions) > 0 {
				c.chunk = chunkID(fid, 0)
			}
			c.score += boost
		}
	}
	hits := make([]Hit, 0, len(byFile))
	for fid, c := range byFile {
		m := x.files[fid]
		if m == nil {
			continue
		}
		h := Hit{File: m.info, Score: c.score, Similarity: c.sim}
		_, n := splitChunkID(c.chunk)
		if n >= 0 && n < len(m.positions) {
			h.Position = m.positions[n]
			h.Chunk = m.texts[n]
			if !c.hasSim && nonZero(qvec) {
				h.Similarity = m.vecs.dot(n, qvec)
			}
		}
		hits = append(hits, h)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].Similarity != hits[j].Similarity {
			return hits[i].Similarity > hits[j].Similarity
		}
		return hits[i].File.Path < hits[j].File.Path
	})
	if len(hits) > q.TopK {
		hits = hits[:q.TopK]
	}
	return hits, nil
}

// embedQuery embeds a query, with the embedder's query form if it has one.
func (x *Index) embedQuery(ctx context.Context, text string) ([]float32, error) {
	if qe, ok := x.cfg.Embedder.(QueryEmbedder); ok {
		return qe.EmbedQuery(text), nil
	}
	v, err := x.cfg.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// nameBoosts returns the files whose name the query mentions and the
// boost each earns: exactNameBoost for a full name ("config.yaml"),
// stemBoost for the name without its extension ("nginx" for nginx.conf)
// or for all the words of a compound name ("nginx access log" or
// "nginx 访问日志" for nginx-access.log). x.mu must be held.
func (x *Index) nameBoosts(text string) map[string]float64 {
	words := map[string]bool{}
	for _, w := range nameWords(text) {
		words[w] = true
		for _, p := range nameParts(w) {
			words[p] = true
			words[bm25.Stem(p)] = true
		}
	}
	for _, e := range embed.Expand(text) {
		for _, w := range nameWords(e) {
			for _, p := range nameParts(w) {
				words[p] = true
			}
		}
	}
	out := map[string]float64{}
	bump := func(fid string, b float64) {
		if out[fid] < b {
			out[fid] = b
		}
	}
	for w := range words {
		for fid := range x.byName[w] {
			if strings.Contains(w, ".") && w == strings.ToLower(x.files[fid].info.Name) {
				bump(fid, exactNameBoost)
			} else {
				bump(fid, stemBoost)
			}
		}
		for fid := range x.byName[partKey+w] {
			if _, done := out[fid]; done {
				continue
			}
			all := true
			for _, p := range nameParts(stem(x.files[fid].info.Name)) {
				all = all && (words[p] || words[bm25.Stem(p)])
			}
			if all {
				bump(fid, stemBoost)
			}
		}
	}
	return out
}

// nameWords splits text into lower-case runs of letters, digits and
// . _ - that contain a Latin letter: candidate file names.
func nameWords(text string) []string {
	var out []string
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-'))
	})
	for _, w := range f {
		w = strings.Trim(w, ".-_")
		if w != "" && strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// partKey prefixes the keys of the words of a compound file name.
const partKey = "part:"

// nameKeys returns the lookup keys of a file name: the full lower-case
// name, the name without its extension (at least three characters long)
// and, for a compound name, each of its words (partKey + word).
func nameKeys(name string) []string {
	n := strings.ToLower(name)
	keys := []string{n}
	st := stem(n)
	if st != n && len(st) >= 3 {
		keys = append(keys, st)
	}
	if ps := nameParts(st); len(ps) > 1 {
		for _, p := range ps {
			keys = append(keys, partKey+p)
		}
	}
	return keys
}

// stem returns a lower-case file name without its extension.
func stem(name string) string {
	n := strings.ToLower(name)
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		return n[:i]
	}
	return n
}

// nameParts splits a lower-case name into its Latin words of two or more
// characters ("nginx-access" → nginx, access); digits-only and CJK parts
// are left out.
func nameParts(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
		if len(p) >= 2 && strings.IndexFunc(p, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 &&
			strings.IndexFunc(p, func(r rune) bool { return r >= 0x80 }) < 0 {
			out = append(out, p)
		}
	}
	return out
}

func containsPart(ps []*partition, p *partition) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func nonZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return true
		}
	}
	return false
}

// unit returns v scaled to length 1, or v itself if it is zero.
func unit(v []float32) []float32 {
	var sq float64
	for _, x := range v {
		sq += float64(x) * float64(x)
	}
	if sq == 0 || math.Abs(sq-1) < 1e-6 {
		return v
	}
	n := 1 / math.Sqrt(sq)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * n)
	}
	return out
}

// dot is the cosine similarity of two unit vectors: eight independent
// accumulators, so the additions do not wait on each other.
func dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		a8, b8 := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += a8[0] * b8[0]
		s1 += a8[1] * b8[1]
		s2 += a8[2] * b8[2]
		s3 += a8[3] * b8[3]
		s4 += a8[4] * b8[4]
		s5 += a8[5] * b8[5]
		s6 += a8[6] * b8[6]
		s7 += a8[7] * b8[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
