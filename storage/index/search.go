package index

import (
	"context"
	"fmt"

	"opsassist/internal/runecut"
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
	// Text is the query; Search reads its first MaxQueryBytes only.
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
	// NameMatch reports that the query names the file (hybrid mode's
	// file-name boost found it), whatever its chunks' similarity: by its
	// whole name, or by a word of its name that is not generic in the
	// searched chunks (namedBy: "配置" reaches configuration.md through
	// the glossary, but config is in every page of a manual).
	NameMatch bool
	// KeywordMatch reports that the chunk shown shares a specific concept
	// with the query (a content word or a glossary concept in either
	// language, stop words and Chinese bigrams straddling two words
	// aside, found in at most maxSpecificShare of the searched chunks):
	// Relevant requires it. When the file's best chunk has none, the
	// other chunks the BM25 postings name for each word's rarest token
	// are checked, at most maxEvidenceChunks (32) per word, and the hit
	// shows the most similar that has one, with its similarity
	// (evidence); a passage after those 32 is not found, so a long file
	// can be judged without one it has. A generic word alone ("配置", config, in a
	// configuration manual) does not count, nor a word the query reached
	// only through the glossary where it is a piece of a longer name
	// ("db" in key3.db).
	KeywordMatch bool

	chunk int     // index of the chunk shown in its file, -1 for none
	name  nameHit // how the query names the file, if NameMatch
	// best is the similarity of the file's closest chunk when evidence
	// showed another one (Similarity is the shown chunk's).
	best float32
}

// QueryEmbedder is implemented by embedders that embed queries
// differently from documents (the builtin embedder expands queries with
// its glossary).
type QueryEmbedder interface {
	EmbedQuery(text string) []float32
}

// MaxQueryBytes bounds the query the index reads: Search uses the first
// 1 KiB of Query.Text (cut at a rune boundary, about 340 Chinese
// characters; the longest question of testdata/evals has 95 bytes) for
// every stage — embedding, keywords, names and concepts — and ignores
// the rest. A question that long asks its question well before the end,
// and the cost of a search stays bounded whatever a client sends
// (semantic_search's query has no length limit of its own).
const MaxQueryBytes = 1 << 10

// Search returns up to q.TopK files matching q.Text, best first, each
// with its best chunk.
//
// It runs in stages: the query is read (prepare: cut to MaxQueryBytes,
// embedded by queryVector, its concepts found by queryConcepts, all
// before the index's lock is taken, so a long query holds up no Put and
// no other search), the scope picks the partitions (partitionsFor), each
// retriever ranks the files of those partitions (vectorRanking,
// keywordRanking), reciprocal rank fusion adds the rankings and the
// file-name boosts up per file (fusion.go), and the fused files become
// hits with their best chunk, sorted (hits).
//
// While the index loads (Start), Search fails at once with ErrLoading.
func (x *Index) Search(ctx context.Context, q Query) ([]Hit, error) {
	if !x.Loaded() {
		return nil, ErrLoading
	}
	if x.loadErr != nil {
		return nil, x.loadErr
	}
	pq, err := x.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.search(ctx, pq)
}

// A preparedQuery is a query as read before the index is locked: with
// its defaults, cut to MaxQueryBytes, its vector and its concepts
// (unweighed: their shares need the postings).
type preparedQuery struct {
	Query
	vec      []float32
	concepts []concept
}

// prepare reads q without the index's lock: it reads nothing of the
// index but its embedder, which is safe for concurrent use.
func (x *Index) prepare(ctx context.Context, q Query) (preparedQuery, error) {
	q = q.withDefaults()
	qvec, err := x.queryVector(ctx, q)
	if err != nil {
		return preparedQuery{}, err
	}
	return preparedQuery{Query: q, vec: qvec, concepts: queryConcepts(q.Text)}, nil
}

// search ranks pq's partitions' files and judges the hits. x.mu must be
// held for reading.
func (x *Index) search(ctx context.Context, pq preparedQuery) ([]Hit, error) {
	q, qvec := pq.Query, pq.vec
	parts := x.partitionsFor(q)
	if len(parts) == 0 {
		return nil, nil
	}
	f := fusion{}
	if q.Mode != ModeKeyword && nonZero(qvec) {
		r, err := vectorRanking(ctx, parts, qvec)
		if err != nil {
			return nil, err
		}
		f.addVector(r)
	}
	if q.Mode != ModeVector {
		f.addKeyword(keywordRanking(parts, q.Text))
	}
	if q.Mode == ModeHybrid {
		x.addNameBoosts(f, parts, q.Text)
	}
	hits := x.hits(f, qvec)
	if len(hits) > q.TopK {
		hits = hits[:q.TopK]
	}
	concepts := x.weighConcepts(parts, pq.concepts)
	for i := range hits {
		hits[i].KeywordMatch = x.evidence(&hits[i], concepts, qvec)
		hits[i].NameMatch = hits[i].NameMatch && namedBy(hits[i].name, concepts)
	}
	return hits, nil
}

// withDefaults returns q with its defaults filled in: TopK 3, scope
// QueryAll, and its text cut to MaxQueryBytes.
func (q Query) withDefaults() Query {
	if q.TopK <= 0 {
		q.TopK = 3
	}
	if q.Scope == "" {
		q.Scope = QueryAll
	}
	q.Text = runecut.Head(q.Text, MaxQueryBytes)
	return q
}

// queryVector returns the unit query vector, or nil in keyword mode,
// which needs none.
func (x *Index) queryVector(ctx context.Context, q Query) ([]float32, error) {
	if q.Mode == ModeKeyword {
		return nil, nil
	}
	v, err := x.embedQuery(ctx, q.Text)
	if err != nil {
		return nil, fmt.Errorf("index: embedding query: %w", err)
	}
	return unit(v), nil
}

// partitionsFor returns the partitions q searches: the system documents
// unless the scope is uploads, and the uploads of q.ConversationID unless
// the scope is system or no conversation is named. x.mu must be held.
func (x *Index) partitionsFor(q Query) []*partition {
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
	return parts
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
