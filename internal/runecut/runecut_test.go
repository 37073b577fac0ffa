package runecut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadTail(t *testing.T) {
	s := "ab磁盘cd" // 'a','b', 3+3 bytes, 'c','d'
	for _, tc := range []struct {
		n          int
		head, tail string
	}{
		{-1, "", ""},
		{0, "", ""},
		{1, "a", "d"},
		{2, "ab", "cd"},
		{3, "ab", "cd"},
		{4, "ab", "cd"},
		{5, "ab磁", "盘cd"},
		{7, "ab磁", "盘cd"},
		{8, "ab磁盘", "磁盘cd"},
		{10, s, s},
		{99, s, s},
	} {
		if got := Head(s, tc.n); got != tc.head {
			t.Errorf("Head(%q, %d) = %q, want %q", s, tc.n, got, tc.head)
		}
		if got := Tail(s, tc.n); got != tc.tail {
			t.Errorf("Tail(%q, %d) = %q, want %q", s, tc.n, got, tc.tail)
		}
	}
}

// TestValidAlways: every cut of valid text stays valid and within budget.
func TestValidAlways(t *testing.T) {
	s := strings.Repeat("日志x😀", 20)
	for n := 0; n <= len(s)+1; n++ {
		h, tl := Head(s, n), Tail(s, n)
		if len(h) > max(n, 0) || len(tl) > max(n, 0) || !utf8.ValidString(h) || !utf8.ValidString(tl) {
			t.Fatalf("n=%d: head %q tail %q", n, h, tl)
		}
		if !strings.HasPrefix(s, h) || !strings.HasSuffix(s, tl) {
			t.Fatalf("n=%d: not a prefix/suffix", n)
		}
		// Longest: one more rune would not fit.
		if r := s[len(h):]; r != "" {
			_, size := utf8.DecodeRuneInString(r)
			if len(h)+size <= n {
				t.Fatalf("n=%d: head %d bytes is not the longest", n, len(h))
			}
		}
	}
}
