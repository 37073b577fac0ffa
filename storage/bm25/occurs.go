package bm25

import (
	"encoding/binary"
	"hash/maphash"
)

// OccursIn reports whether term (one token, as Tokenize gives it) occurs
// more than more times in one of the live documents first through last,
// in the order they were added (Add appends a document's slot, and
// compaction keeps the order, so documents added one after another stay
// consecutive). Frequencies count up to 255.
//
// It reads the term's postings, never the documents' text, and stops at
// the first posting past last: its cost is bounded by the term's
// document frequency, whatever the documents' size. It returns false if
// first or last is not in the index or last comes before first.
func (x *Index) OccursIn(term, first, last string, more int) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	lo, ok1 := x.slots[first]
	hi, ok2 := x.slots[last]
	if !ok1 || !ok2 || hi < lo {
		return false
	}
	p, ok := x.postings[maphash.String(x.seed, term)]
	if !ok {
		return false
	}
	if p&listFlag == 0 {
		slot, tf := int32(p>>8), int(p&0xff)
		return slot >= lo && slot <= hi && tf > more && x.ids[slot] != ""
	}
	return x.lists[p&^listFlag].occursIn(lo, hi, more, x.ids)
}

// occursIn reports whether p has a posting of a live slot in [lo, hi]
// with a frequency above more; ids marks dead slots with "".
func (p *plist) occursIn(lo, hi int32, more int, ids []string) bool {
	slot := int32(0)
	for i, k := 0, int32(0); k < p.n; k++ {
		d, w := binary.Uvarint(p.data[i:])
		i += w
		slot += int32(d)
		if slot > hi {
			return false
		}
		if slot >= lo && int(p.data[i]) > more && ids[slot] != "" {
			return true
		}
		i++
	}
	return false
}

// DocFreq is how many documents have term (one token, as Tokenize gives
// it) among their terms: the document frequency BM25's IDF uses, with
// documents deleted since the last compaction possibly still counted.
func (x *Index) DocFreq(term string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	p, ok := x.postings[maphash.String(x.seed, term)]
	if !ok {
		return 0
	}
	return int(x.count(p))
}

// Docs returns the slots of the live documents that have term (one
// token, as Tokenize gives it), ascending: numbers that identify a
// document within this index until its next compaction, for counting
// the documents several terms cover together (a union or intersection
// of these lists). It reads the term's postings only.
func (x *Index) Docs(term string) []int32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	p, ok := x.postings[maphash.String(x.seed, term)]
	if !ok {
		return nil
	}
	out := make([]int32, 0, x.count(p))
	x.each(p, func(slot int32, _ int) {
		if x.ids[slot] != "" {
			out = append(out, slot)
		}
	})
	return out
}

// DocsIn returns the ids of up to limit live documents first through
// last (in the order they were added, as OccursIn) that have term more
// than more times, in that order. Like OccursIn it reads the term's
// postings, never the documents, and stops past last.
func (x *Index) DocsIn(term, first, last string, more, limit int) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	lo, ok1 := x.slots[first]
	hi, ok2 := x.slots[last]
	if !ok1 || !ok2 || hi < lo || limit <= 0 {
		return nil
	}
	p, ok := x.postings[maphash.String(x.seed, term)]
	if !ok {
		return nil
	}
	var out []string
	take := func(slot int32, tf int) bool {
		if slot >= lo && slot <= hi && tf > more && x.ids[slot] != "" {
			out = append(out, x.ids[slot])
		}
		return len(out) < limit
	}
	if p&listFlag == 0 {
		take(int32(p>>8), int(p&0xff))
		return out
	}
	l := &x.lists[p&^listFlag]
	slot := int32(0)
	for i, k := 0, int32(0); k < l.n; k++ {
		d, w := binary.Uvarint(l.data[i:])
		i += w
		slot += int32(d)
		if slot > hi || !take(slot, int(l.data[i])) {
			break
		}
		i++
	}
	return out
}
