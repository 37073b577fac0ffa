package bm25

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// BM25 parameters used by New.
const (
	k1 = 1.2
	b  = 0.75
)

// Hit is one search result.
type Hit struct {
	ID    string
	Score float64
}

// Index is an in-memory BM25 index of documents keyed by id.
// It is safe for concurrent use.
type Index struct {
	mu       sync.RWMutex
	slots    map[string]int32           // id → document slot
	ids      []string                   // slot → id; "" for a free slot
	lens     []int32                    // slot → document length in tokens
	terms    [][]string                 // slot → distinct terms, for Delete
	free     []int32                    // free slots for reuse
	postings map[string]map[int32]int32 // term → slot → term frequency
	totalLen int64                      // sum of lens over live documents
}

// New returns an empty index with k1 = 1.2 and b = 0.75.
func New() *Index {
	return &Index{
		slots:    make(map[string]int32),
		postings: make(map[string]map[int32]int32),
	}
}

// Len returns the number of documents in the index.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.slots)
}

// Add indexes text under id, replacing any document already stored under id.
func (x *Index) Add(id string, text string) {
	// Count term frequencies by sorting, which avoids a map per document.
	sorted := Tokenize(text)
	slices.Sort(sorted)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.delete(id)
	var slot int32
	if n := len(x.free); n > 0 {
		slot = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		slot = int32(len(x.ids))
		x.ids = append(x.ids, "")
		x.lens = append(x.lens, 0)
		x.terms = append(x.terms, nil)
	}
	var terms []string
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		t := sorted[i]
		p := x.postings[t]
		if p == nil {
			p = make(map[int32]int32, 1)
			x.postings[t] = p
		}
		p[slot] = int32(j - i)
		terms = append(terms, t)
		i = j
	}
	x.slots[id] = slot
	x.ids[slot] = id
	x.lens[slot] = int32(len(sorted))
	x.terms[slot] = terms
	x.totalLen += int64(len(sorted))
}

// Delete removes the document stored under id, if any.
func (x *Index) Delete(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.delete(id)
}

// delete removes id; x.mu must be held for writing.
func (x *Index) delete(id string) {
	slot, ok := x.slots[id]
	if !ok {
		return
	}
	for _, t := range x.terms[slot] {
		p := x.postings[t]
		delete(p, slot)
		if len(p) == 0 {
			delete(x.postings, t)
		}
	}
	delete(x.slots, id)
	x.totalLen -= int64(x.lens[slot])
	x.ids[slot] = ""
	x.lens[slot] = 0
	x.terms[slot] = nil
	x.free = append(x.free, slot)
	if len(x.slots) == 0 {
		// Drop all slot storage once the index is empty.
		x.ids, x.lens, x.terms, x.free = nil, nil, nil, nil
	}
}

// Search returns up to n documents matching query, best first, with ties
// broken by ascending id. Only documents with a positive score for which
// filter returns true are returned; a nil filter accepts every document.
// Search returns nil if n <= 0 or the query has no tokens or no matches.
// filter is called without the index lock held.
func (x *Index) Search(query string, n int, filter func(id string) bool) []Hit {
	if n <= 0 {
		return nil
	}
	qterms := Tokenize(query)
	if len(qterms) == 0 {
		return nil
	}
	// Distinct query terms, in order, so that scores are deterministic.
	seen := make(map[string]bool, len(qterms))
	uniq := qterms[:0]
	for _, t := range qterms {
		if !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
		}
	}

	x.mu.RLock()
	docs := float64(len(x.slots))
	if docs == 0 {
		x.mu.RUnlock()
		return nil
	}
	avgLen := float64(x.totalLen) / docs
	if avgLen == 0 {
		avgLen = 1
	}
	scores := make(map[int32]float64)
	for _, t := range uniq {
		p := x.postings[t]
		if len(p) == 0 {
			continue
		}
		df := float64(len(p))
		idf := math.Log(1 + (docs-df+0.5)/(df+0.5))
		for slot, tf := range p {
			f := float64(tf)
			norm := k1 * (1 - b + b*float64(x.lens[slot])/avgLen)
			scores[slot] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	hits := make([]Hit, 0, len(scores))
	for slot, s := range scores {
		if s > 0 {
			hits = append(hits, Hit{ID: x.ids[slot], Score: s})
		}
	}
	x.mu.RUnlock()

	// filter runs without the lock so that it may call back into the index.
	if filter != nil {
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return !filter(h.ID) })
	}
	if len(hits) == 0 {
		return nil
	}
	return topN(hits, n)
}

// better reports whether a ranks before b: higher score, then lower id.
func better(a, b Hit) bool {
	return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID
}

// topN returns the n best hits in rank order, reusing hits' storage.
func topN(hits []Hit, n int) []Hit {
	if n < len(hits) {
		// Keep the n best in a heap whose root is the worst kept hit.
		h := hits[:n]
		for i := n/2 - 1; i >= 0; i-- {
			down(h, i)
		}
		for _, c := range hits[n:] {
			if better(c, h[0]) {
				h[0] = c
				down(h, 0)
			}
		}
		hits = h[:n:n]
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return hits
}

// down restores the heap property of h below i, with the worst hit at the root.
func down(h []Hit, i int) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && better(h[w], h[l]) {
			w = l
		}
		if r < len(h) && better(h[w], h[r]) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
