package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"opsassist/storage/embed"
)

// TestScanMatchesExactCosine checks the scan over 8-bit vectors against
// exact float32 cosine similarity of the vectors as embedded: every hit's
// similarity is within 0.01 of the exact one, hits come best first, and
// the best hit is as good as the exact best (within 0.01).
func TestScanMatchesExactCosine(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(testDim)
	x := openTest(t, t.TempDir(), Config{Embedder: e, CompactAfter: 1 << 40})
	r := rand.New(rand.NewPCG(3, 4))
	exact := map[string][]float32{} // chunk id → unit float32 vector
	for i := range 260 {
		texts := make([]string, 20)
		for j := range texts {
			texts[j] = benchChunk(r)
		}
		f := makeFile(t, e, fmt.Sprintf("f%03d", i), fmt.Sprintf("f%03d.md", i), ScopeSystem, "", texts...)
		for j, c := range f.Chunks {
			exact[chunkID(f.ID, j)] = unit(c.Embedding)
		}
		if err := x.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	// Delete a few so the partition's file list has been reshuffled.
	for _, id := range []string{"f000", "f100", "f259"} {
		if err := x.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
		for j := range 20 {
			delete(exact, chunkID(id, j))
		}
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	p := x.parts[ScopeSystem]
	if p.chunks != len(exact) {
		t.Fatalf("partition holds %d chunks, want %d", p.chunks, len(exact))
	}
	for _, q := range []string{"数据库 备份", "nginx upstream timeout", "disk alert 阈值"} {
		qv := unit(e.EmbedQuery(q))
		got, err := scan(ctx, p, qv, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 50 {
			t.Fatalf("%q: %d hits, want 50", q, len(got))
		}
		var best float32 = -2
		for _, v := range exact {
			best = max(best, dot(qv, v))
		}
		for i, h := range got {
			id := chunkID(h.m.info.ID, h.chunk)
			want := dot(qv, exact[id])
			if math.Abs(float64(h.sim-want)) > 0.01 {
				t.Errorf("%q #%d %s: similarity %.4f, exact %.4f", q, i, id, h.sim, want)
			}
			if i > 0 && h.sim > got[i-1].sim {
				t.Errorf("%q #%d: %.4f after %.4f", q, i, h.sim, got[i-1].sim)
			}
		}
		if math.Abs(float64(got[0].sim-best)) > 0.01 {
			t.Errorf("%q: best hit %.4f, exact best %.4f", q, got[0].sim, best)
		}
	}
}
