package rdt

import "sort"

// rangeSet is a set of byte offsets kept as sorted, disjoint,
// non-adjacent half-open ranges.
type rangeSet struct {
	rs []Range
}

// add inserts [start, end) and returns how many of its bytes were new.
func (s *rangeSet) add(start, end uint64) uint64 {
	if start >= end {
		return 0
	}
	// i is the first range that ends at or after start (may merge).
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].End >= start })
	j := i
	covered := uint64(0)
	ns, ne := start, end
	for j < len(s.rs) && s.rs[j].Start <= end {
		r := s.rs[j]
		lo, hi := max(r.Start, start), min(r.End, end)
		if hi > lo {
			covered += hi - lo
		}
		ns, ne = min(ns, r.Start), max(ne, r.End)
		j++
	}
	if i == j {
		s.rs = append(s.rs, Range{})
		copy(s.rs[i+1:], s.rs[i:])
		s.rs[i] = Range{ns, ne}
	} else {
		s.rs[i] = Range{ns, ne}
		s.rs = append(s.rs[:i+1], s.rs[j:]...)
	}
	return (end - start) - covered
}

// contains reports whether all of [start, end) is in the set.
func (s *rangeSet) contains(start, end uint64) bool {
	if start >= end {
		return true
	}
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].End > start })
	return i < len(s.rs) && s.rs[i].Start <= start && s.rs[i].End >= end
}

// firstGap returns the first offset ≥ from that is not in the set, and
// the end of that gap (limit if the gap runs to the end).
func (s *rangeSet) firstGap(from, limit uint64) (uint64, uint64) {
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].End > from })
	if i < len(s.rs) && s.rs[i].Start <= from {
		from = s.rs[i].End
		i++
	}
	end := limit
	if i < len(s.rs) && s.rs[i].Start < end {
		end = s.rs[i].Start
	}
	if from > limit {
		from = limit
	}
	return from, end
}

// prefix returns the end of the range starting at 0, or 0.
func (s *rangeSet) prefix() uint64 {
	if len(s.rs) > 0 && s.rs[0].Start == 0 {
		return s.rs[0].End
	}
	return 0
}

// total returns the number of bytes in the set.
func (s *rangeSet) total() uint64 {
	var n uint64
	for _, r := range s.rs {
		n += r.End - r.Start
	}
	return n
}

// ranges returns a copy of the ranges.
func (s *rangeSet) ranges() []Range { return append([]Range(nil), s.rs...) }
