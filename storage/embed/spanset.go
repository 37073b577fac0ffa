package embed

import (
	"cmp"
	"slices"
	"sort"
)

// A spanSet is the places one glossary entry is mentioned, sorted by
// (zh, start, end) and without repeats, with what cover needs to answer
// in a binary search: for each span, the largest end among the spans of
// its language up to it (maxEnd).
type spanSet struct {
	spans  []span
	maxEnd []int
}

// newSpanSet sorts and deduplicates spans (a term listed twice, or two
// entries' shared term, finds the same place twice).
func newSpanSet(spans []span) spanSet {
	slices.SortFunc(spans, compareSpans)
	spans = slices.Compact(spans)
	s := spanSet{spans: spans, maxEnd: make([]int, len(spans))}
	for i, t := range spans {
		s.maxEnd[i] = t.end
		if i > 0 && spans[i-1].zh == t.zh {
			s.maxEnd[i] = max(s.maxEnd[i], s.maxEnd[i-1])
		}
	}
	return s
}

// compareSpans orders English spans before Chinese ones, then by start
// and end.
func compareSpans(a, b span) int {
	if a.zh != b.zh {
		if b.zh {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
}

// cover reports whether every span of a lies inside a strictly longer
// span of s (in the same language). Each of a's spans costs a binary
// search of s; work, when not nil, counts them.
func (s spanSet) cover(a spanSet, work *int) bool {
	for _, t := range a.spans {
		if work != nil {
			*work++
		}
		if !s.covers(t) {
			return false
		}
	}
	return true
}

// covers reports whether t lies inside a strictly longer span of s: one
// that starts before t and ends at or after it, or starts with t and ends
// after it. Of the spans that start at or before a position, the one
// ending last is maxEnd's.
func (s spanSet) covers(t span) bool {
	// upTo is the index of the last span of t's language starting at or
	// before start, or -1.
	upTo := func(start int) int {
		i := sort.Search(len(s.spans), func(i int) bool {
			return compareSpans(s.spans[i], span{start: start + 1, end: -1, zh: t.zh}) >= 0
		})
		i--
		if i < 0 || s.spans[i].zh != t.zh {
			return -1
		}
		return i
	}
	if i := upTo(t.start - 1); i >= 0 && s.maxEnd[i] >= t.end {
		return true
	}
	i := upTo(t.start)
	return i >= 0 && s.maxEnd[i] > t.end
}

// equal reports whether s and a are the same places. work, when not nil,
// counts the spans compared.
func (s spanSet) equal(a spanSet, work *int) bool {
	if len(s.spans) != len(a.spans) {
		return false
	}
	for i := range s.spans {
		if work != nil {
			*work++
		}
		if s.spans[i] != a.spans[i] {
			return false
		}
	}
	return true
}
