package rangeset

import "testing"

func TestRangeSet(t *testing.T) {
	var s Set
	steps := []struct {
		start, end, newBytes uint64
	}{{10, 20, 10}, {30, 40, 10}, {15, 35, 10}, {0, 5, 5}, {5, 10, 5}, {0, 40, 0}, {40, 41, 1}}
	for _, st := range steps {
		if n := s.Add(st.start, st.end); n != st.newBytes {
			t.Fatalf("add(%d,%d) = %d, want %d (%v)", st.start, st.end, n, st.newBytes, s.rs)
		}
	}
	if len(s.rs) != 1 || s.rs[0] != (Range{0, 41}) || s.Prefix() != 41 || !s.Contains(3, 41) || s.Contains(3, 42) {
		t.Fatalf("%v", s.rs)
	}
	s.Add(50, 60)
	if g, e := s.FirstGap(0, 100); g != 41 || e != 50 {
		t.Fatalf("gap %d %d", g, e)
	}
	if g, e := s.FirstGap(55, 100); g != 60 || e != 100 {
		t.Fatalf("gap %d %d", g, e)
	}
}
