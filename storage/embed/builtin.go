package embed

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// DefaultDim is the vector dimension NewBuiltin uses when given dim <= 0.
const DefaultDim = 768

// expansionWeight scales the features of glossary terms added to a query,
// so that the words the user actually typed dominate.
const expansionWeight = 0.8

// Builtin is the offline, deterministic feature-hashing embedder.
//
// Text is NFKC-normalised and lower-cased, then split into features (see
// kindWeight for the per-kind weights): Latin words, with snake_case,
// camelCase, kebab-case and dotted names split into their parts and also
// kept whole; consecutive word bigrams; character 3-grams of each word with
// '<' and '>' boundary markers; CJK character unigrams and bigrams. Each
// distinct feature is hashed (FNV-1a 64, then mixed) to a bucket h % dim
// with the sign taken from the top bit, weighted by kind weight times
// 1 + ln(tf), and the vector is L2-normalised. Text with no features (empty
// or only punctuation) yields the zero vector, whose cosine with anything
// is 0.
//
// Documents are embedded as written, with Embed; queries should use
// EmbedQuery, which adds bilingual glossary expansions. Expanding only the
// query keeps document vectors faithful to their text and lets the glossary
// change without re-indexing.
//
// A Builtin holds no mutable state and is safe for concurrent use.
type Builtin struct {
	dim  int
	name string
}

var _ Embedder = (*Builtin)(nil)

// NewBuiltin returns a Builtin producing dim-dimensional vectors; dim <= 0
// selects DefaultDim.
func NewBuiltin(dim int) *Builtin {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Builtin{dim: dim, name: fmt.Sprintf("builtin-hash-v1-%d", dim)}
}

// Dim returns the vector dimension.
func (e *Builtin) Dim() int { return e.dim }

// Name returns "builtin-hash-v1-<dim>".
func (e *Builtin) Name() string { return e.name }

// Embed returns the document vectors of texts, without glossary expansion.
// It stops early with ctx's error if ctx is done.
func (e *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		out[i] = e.embedOne(t)
	}
	return out, nil
}

// EmbedQuery returns the vector of a search query, with the query's
// glossary expansions (数据库 → database, db; port → 端口; …) added at
// reduced weight.
func (e *Builtin) EmbedQuery(text string) []float32 {
	text = norm.NFKC.String(text)
	b := newBag()
	b.extract(text)
	for _, d := range DateTokens(text) {
		b.extract(d)
	}
	b.mult = expansionWeight
	for _, t := range expand(strings.ToLower(text)) {
		b.extract(t)
	}
	return b.vector(e.dim)
}

func (e *Builtin) embedOne(text string) []float32 {
	b := newBag()
	b.extract(norm.NFKC.String(text))
	return b.vector(e.dim)
}
