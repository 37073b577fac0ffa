// Package rangeset keeps a set of byte offsets as sorted, disjoint,
// non-adjacent half-open ranges: which bytes of a file a receiver holds,
// which a sender has seen acknowledged, which a part file has on disk.
package rangeset

import "sort"

// Range is the half-open byte range [Start, End).
type Range struct {
	Start, End uint64
}

// Set is a set of byte offsets. The zero value is empty and ready to
// use. It is not safe for concurrent use.
type Set struct {
	rs []Range
}

// Add inserts [start, end) and returns how many of its bytes were new.
func (s *Set) Add(start, end uint64) uint64 {
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

// Contains reports whether all of [start, end) is in the set.
func (s *Set) Contains(start, end uint64) bool {
	if start >= end {
		return true
	}
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].End > start })
	return i < len(s.rs) && s.rs[i].Start <= start && s.rs[i].End >= end
}

// FirstGap returns the first offset ≥ from that is not in the set, and
// the end of that gap (limit if the gap runs to the end).
func (s *Set) FirstGap(from, limit uint64) (uint64, uint64) {
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

// Prefix returns the end of the range starting at 0, or 0.
func (s *Set) Prefix() uint64 {
	if len(s.rs) > 0 && s.rs[0].Start == 0 {
		return s.rs[0].End
	}
	return 0
}

// Total returns the number of bytes in the set.
func (s *Set) Total() uint64 {
	var n uint64
	for _, r := range s.rs {
		n += r.End - r.Start
	}
	return n
}

// Ranges returns a copy of the ranges, ascending.
func (s *Set) Ranges() []Range { return append([]Range(nil), s.rs...) }
