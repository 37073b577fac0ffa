package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"opsassist/storage/embed"
)

// TestScanAgreesWithChromem checks the fast scan against chromem-go's own
// exhaustive query on the same vectors: same chunks, same order, same
// similarities.
func TestScanAgreesWithChromem(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x := openTest(t, t.TempDir(), Config{Embedder: e, CompactAfter: 1 << 40})
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 260 {
		texts := make([]string, 20)
		for j := range texts {
			texts[j] = benchChunk(r)
		}
		if err := x.Put(ctx, makeFile(t, e, fmt.Sprintf("f%03d", i), fmt.Sprintf("f%03d.md", i), ScopeSystem, "", texts...)); err != nil {
			t.Fatal(err)
		}
	}
	// Delete a few so the partition's file list has been reshuffled.
	for _, id := range []string{"f000", "f100", "f259"} {
		if err := x.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	p := x.parts[ScopeSystem]
	if p.col.Count() < fastScanMin {
		t.Fatalf("%d chunks: too few to test the fast scan", p.col.Count())
	}
	for _, q := range []string{"数据库 备份", "nginx upstream timeout", "disk alert 阈值"} {
		qv := unit(e.EmbedQuery(q))
		got, err := scan(ctx, p, qv, 50)
		if err != nil {
			t.Fatal(err)
		}
		want, err := p.col.QueryEmbedding(ctx, qv, 50, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d hits, chromem %d", q, len(got), len(want))
		}
		for i := range got {
			id := chunkID(got[i].m.info.ID, got[i].chunk)
			if math.Abs(float64(got[i].sim-want[i].Similarity)) > 1e-5 {
				t.Fatalf("%q #%d: %s %.6f, chromem %s %.6f", q, i, id, got[i].sim, want[i].ID, want[i].Similarity)
			}
			if id != want[i].ID && math.Abs(float64(got[i].sim-want[i].Similarity)) > 1e-7 {
				t.Errorf("%q #%d: %s, chromem %s", q, i, id, want[i].ID)
			}
		}
	}
}
