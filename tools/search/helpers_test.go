package search

import (
	"context"
	"testing"

	"opsassist/storage/embed"
	"opsassist/storage/index"
)

// testIndex is an empty index in a temporary directory over the builtin
// embedder (128 dimensions), for a test to fill with put.
type testIndex struct {
	*index.Index
	e *embed.Builtin
}

// newTestIndex opens a testIndex; t.Cleanup closes it.
func newTestIndex(t *testing.T) *testIndex {
	t.Helper()
	e := embed.NewBuiltin(128)
	x, err := index.Open(t.TempDir(), index.Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return &testIndex{Index: x, e: e}
}

// put stores f with one chunk per text, embedded as a document, at the
// position positions gives it.
func (x *testIndex) put(t *testing.T, f index.File, texts []string, positions func(i int) string) {
	t.Helper()
	ctx := context.Background()
	vecs, err := x.e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		f.Chunks = append(f.Chunks, index.Chunk{Text: s, Position: positions(i), Embedding: vecs[i]})
	}
	if err := x.Put(ctx, f); err != nil {
		t.Fatal(err)
	}
}
