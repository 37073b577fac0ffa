package index

import "testing"

func TestHitRelevant(t *testing.T) {
	for _, c := range []struct {
		h    Hit
		min  float64
		want bool
	}{
		{Hit{Similarity: 0.2}, 0.07, true},
		{Hit{Similarity: 0.07}, 0.07, true},
		{Hit{Similarity: 0.05}, 0.07, false},
		{Hit{Similarity: -0.1}, 0.07, false},
		{Hit{Similarity: 0.01, NameMatch: true}, 0.07, true},
		{Hit{Similarity: 0}, 0, true},
	} {
		if got := c.h.Relevant(c.min); got != c.want {
			t.Errorf("%+v.Relevant(%v) = %v, want %v", c.h, c.min, got, c.want)
		}
	}
}
