package index

import (
	"container/heap"
	"context"
	"runtime"
	"sync"
)

// The vector ranking is exhaustive: every chunk vector of a partition is
// compared with the query, split between the CPUs. A chunk costs one
// multiply-add per dimension over 8-bit components (vectors.go); the
// unrolled kernel keeps a 100k-chunk query within its budget.

// scanHit is one chunk found by the scan.
type scanHit struct {
	m     *fileMeta
	chunk int
	sim   float32
}

// hitHeap is a min-heap of hits by similarity: its root is the worst kept.
type hitHeap []scanHit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return h[i].sim < h[j].sim }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(scanHit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scan returns the n chunks of p most similar to the unit vector q, best
// first, using every CPU. x.mu must be held for reading.
func scan(ctx context.Context, p *partition, q []float32, n int) ([]scanHit, error) {
	workers := min(runtime.GOMAXPROCS(0), max(1, len(p.metas)/64))
	parts := make([]hitHeap, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(p.metas)/workers, (w+1)*len(p.metas)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := make(hitHeap, 0, n+1)
			for _, m := range p.metas[lo:hi] {
				if ctx.Err() != nil {
					return
				}
				for i := range m.vecs.len() {
					s := m.vecs.dot(i, q)
					if len(h) < n {
						heap.Push(&h, scanHit{m, i, s})
					} else if s > h[0].sim {
						h[0] = scanHit{m, i, s}
						heap.Fix(&h, 0)
					}
				}
			}
			parts[w] = h
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all := make(hitHeap, 0, workers*n)
	for _, h := range parts {
		all = append(all, h...)
	}
	// Best first; ties by file id and chunk for a stable order.
	sortHits(all)
	if len(all) > n {
		all = all[:n]
	}
	return all, nil
}

// sortHits orders hits best first.
func sortHits(hs []scanHit) {
	less := func(a, b scanHit) bool {
		if a.sim != b.sim {
			return a.sim > b.sim
		}
		if a.m.info.ID != b.m.info.ID {
			return a.m.info.ID < b.m.info.ID
		}
		return a.chunk < b.chunk
	}
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && less(hs[j], hs[j-1]); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}
