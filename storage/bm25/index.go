package bm25

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
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

// maxSlots bounds document slots (2^31 − 1 would overflow; 2^30 is far
// beyond any index this server holds). Past it the index compacts, and a
// document added while that many are live is not keyword-indexed.
const maxSlots = 1 << 30

// plist is one term's postings, ascending by document slot and
// delta-encoded: per document, uvarint(slot − previous slot) then one
// byte of term frequency (capped at 255). Most postings take two bytes.
type plist struct {
	data []byte
	last int32 // slot of the last posting
	n    int32 // postings in data
}

// add appends a posting for slot, which must exceed every slot in p. The
// buffer grows by a quarter rather than doubling, since most of the
// index's memory is in these lists.
func (p *plist) add(slot int32, tf int) {
	delta := slot
	if p.n > 0 {
		delta = slot - p.last
	}
	if cap(p.data)-len(p.data) < binary.MaxVarintLen32+1 {
		grown := make([]byte, len(p.data), len(p.data)+len(p.data)/4+binary.MaxVarintLen32+8)
		copy(grown, p.data)
		p.data = grown
	}
	p.data = binary.AppendUvarint(p.data, uint64(delta))
	p.data = append(p.data, byte(min(tf, 255)))
	p.last, p.n = slot, p.n+1
}

// each calls fn for every posting in slot order.
func (p *plist) each(fn func(slot int32, tf int)) {
	slot := int32(0)
	for i, k := 0, int32(0); k < p.n; k++ {
		d, w := binary.Uvarint(p.data[i:])
		i += w
		slot += int32(d)
		fn(slot, int(p.data[i]))
		i++
	}
}

// posting is a term's entry in Index.postings: either the term's only
// posting inline (bit 63 clear: document slot << 8 | term frequency), or
// listFlag | the index of its plist in Index.lists. Most terms of a large
// corpus occur in one document (identifiers, hashes, random words), and
// an inline posting costs them no allocation at all.
type posting uint64

const listFlag posting = 1 << 63

func inline(slot int32, tf int) posting {
	return posting(uint64(uint32(slot))<<8 | uint64(min(tf, 255)))
}

// Index is an in-memory BM25 index of documents keyed by id. It is safe
// for concurrent use.
//
// Terms are kept as 64-bit hashes (maphash, seeded per index), not
// strings: two distinct terms share postings only if their hashes
// collide, which among a billion terms happens with probability about
// 3%·10⁻⁸. A term found in one document takes one map entry (about 25
// bytes); longer postings are delta-encoded byte lists (about 2 bytes
// per document and term). Deleting a
// document only marks its slot dead; once dead postings outnumber live
// ones the index is compacted, so memory stays proportional to what is
// indexed and a delete costs O(1) amortised.
type Index struct {
	mu       sync.RWMutex
	slots    map[string]int32   // id → document slot
	ids      []string           // slot → id; "" for a dead slot
	lens     []int32            // slot → document length in tokens
	nterms   []int32            // slot → distinct terms (postings) of the document
	seed     maphash.Seed       // hashes terms
	postings map[uint64]posting // term hash → postings, ascending slot
	lists    []plist            // postings of terms in more than one document
	totalLen int64              // sum of lens over live documents
	live     int64              // postings of live documents
	dead     int64              // postings of dead documents
}

// New returns an empty index with k1 = 1.2 and b = 0.75.
func New() *Index {
	return &Index{
		slots:    make(map[string]int32),
		seed:     maphash.MakeSeed(),
		postings: make(map[uint64]posting),
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
	if len(x.ids) >= maxSlots && x.dead > 0 {
		x.compact()
	}
	if len(x.ids) >= maxSlots {
		return // documented limit: 2^30 live documents
	}
	slot := int32(len(x.ids))
	var n int32
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		x.addPosting(maphash.String(x.seed, sorted[i]), slot, j-i)
		n++
		i = j
	}
	x.slots[id] = slot
	x.ids = append(x.ids, id)
	x.lens = append(x.lens, int32(len(sorted)))
	x.nterms = append(x.nterms, n)
	x.totalLen += int64(len(sorted))
	x.live += int64(n)
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
	delete(x.slots, id)
	x.totalLen -= int64(x.lens[slot])
	x.ids[slot] = ""
	x.live -= int64(x.nterms[slot])
	x.dead += int64(x.nterms[slot])
	switch {
	case len(x.slots) == 0:
		// Drop all storage once the index is empty.
		x.ids, x.lens, x.nterms = nil, nil, nil
		x.postings, x.lists = make(map[uint64]posting), nil
		x.live, x.dead, x.totalLen = 0, 0, 0
	case x.dead > x.live || len(x.ids) > 2*len(x.slots)+64:
		// Dead postings or dead slots (documents without terms have
		// none) outnumber the live ones.
		x.compact()
	}
}

// Trim releases the spare capacity of every posting list. The index calls
// it once a bulk load (start-up) is done.
func (x *Index) Trim() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.dead > 0 {
		x.compact()
		return
	}
	for i := range x.lists {
		ps := &x.lists[i]
		if cap(ps.data) > len(ps.data) {
			ps.data = slices.Clip(append([]byte(nil), ps.data...))
		}
	}
	x.lists = slices.Clip(x.lists)
}

// addPosting appends a posting of the term with hash h; slot must exceed
// every slot in the term's postings. x.mu must be held for writing.
func (x *Index) addPosting(h uint64, slot int32, tf int) {
	p, ok := x.postings[h]
	switch {
	case !ok:
		x.postings[h] = inline(slot, tf)
	case p&listFlag == 0:
		// The term's second document: move it to a list.
		var ps plist
		ps.add(int32(p>>8), int(p&0xff))
		ps.add(slot, tf)
		x.lists = append(x.lists, ps)
		x.postings[h] = listFlag | posting(len(x.lists)-1)
	default:
		x.lists[p&^listFlag].add(slot, tf)
	}
}

// each calls fn for every posting of p in slot order. x.mu must be held.
func (x *Index) each(p posting, fn func(slot int32, tf int)) { x.eachIn(x.lists, p, fn) }

// eachIn is each over another set of lists (compact's old ones).
func (x *Index) eachIn(lists []plist, p posting, fn func(slot int32, tf int)) {
	if p&listFlag == 0 {
		fn(int32(p>>8), int(p&0xff))
		return
	}
	lists[p&^listFlag].each(fn)
}

// count returns the number of postings of p. x.mu must be held.
func (x *Index) count(p posting) int32 {
	if p&listFlag == 0 {
		return 1
	}
	return x.lists[p&^listFlag].n
}

// compact drops dead documents and renumbers the live ones; x.mu must be
// held for writing.
func (x *Index) compact() {
	remap := make([]int32, len(x.ids))
	n := int32(0)
	for slot, id := range x.ids {
		if id == "" {
			remap[slot] = -1
			continue
		}
		remap[slot] = n
		x.ids[n], x.lens[n], x.nterms[n] = id, x.lens[slot], x.nterms[slot]
		x.slots[id] = n
		n++
	}
	x.ids = slices.Clip(x.ids[:n])
	x.lens = slices.Clip(x.lens[:n])
	x.nterms = slices.Clip(x.nterms[:n])
	old, oldLists := x.postings, x.lists
	x.postings, x.lists = make(map[uint64]posting, len(old)), nil
	for h, p := range old {
		var kept plist
		var one posting
		x.eachIn(oldLists, p, func(slot int32, tf int) {
			if r := remap[slot]; r >= 0 {
				if kept.n == 0 {
					one = inline(r, tf)
				}
				kept.add(r, tf)
			}
		})
		switch {
		case kept.n == 0:
		case kept.n == 1:
			x.postings[h] = one
		default:
			kept.data = slices.Clip(kept.data)
			x.lists = append(x.lists, kept)
			x.postings[h] = listFlag | posting(len(x.lists)-1)
		}
	}
	x.lists = slices.Clip(x.lists)
	x.dead = 0
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
	// Dense scores: one float per slot beats a map once terms are common.
	scores := make([]float32, len(x.ids))
	var touched []int32
	for _, t := range uniq {
		ps, ok := x.postings[maphash.String(x.seed, t)]
		if !ok {
			continue
		}
		df := float64(x.count(ps))
		if x.dead > 0 {
			df = 0
			x.each(ps, func(slot int32, _ int) {
				if x.ids[slot] != "" {
					df++
				}
			})
		}
		idf := math.Log(1 + (docs-df+0.5)/(df+0.5))
		x.each(ps, func(slot int32, tf int) {
			if x.ids[slot] == "" {
				return
			}
			f := float64(tf)
			norm := k1 * (1 - b + b*float64(x.lens[slot])/avgLen)
			if scores[slot] == 0 {
				touched = append(touched, slot)
			}
			scores[slot] += float32(idf * f * (k1 + 1) / (f + norm))
		})
	}
	hits := make([]Hit, 0, len(touched))
	for _, slot := range touched {
		if s := scores[slot]; s > 0 {
			hits = append(hits, Hit{ID: x.ids[slot], Score: float64(s)})
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
