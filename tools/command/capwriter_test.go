package command

import (
	"strings"
	"testing"
)

func TestCapWriter(t *testing.T) {
	tests := []struct {
		max    int
		writes []string
		want   string
	}{
		{10, []string{"hello"}, "hello"},
		{5, []string{"hel", "lo"}, "hello"},
		{5, []string{"hello\n", "world"}, "hello\n…[truncated 6 bytes]"},
		{5, []string{"hello world\n"}, "hello\n…[truncated 7 bytes]"},
		{4, []string{"ab", "cdef"}, "abcd\n…[truncated 2 bytes]"},
		// "é" is two bytes: the first alone is dropped, not shown as U+FFFD.
		{3, []string{"abé"}, "ab\n…[truncated 2 bytes]"},
		{0, []string{"x"}, "…[truncated 1 bytes]"},
	}
	for _, tt := range tests {
		w := &capWriter{max: tt.max}
		for _, s := range tt.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if got := w.String(); got != tt.want {
			t.Errorf("max %d, writes %q: %q, want %q", tt.max, tt.writes, got, tt.want)
		}
	}
	w := &capWriter{max: 8}
	for range 1000 {
		w.Write([]byte(strings.Repeat("x", 4096)))
	}
	if len(w.buf) != 8 || w.dropped != 4096*1000-8 {
		t.Errorf("kept %d, dropped %d", len(w.buf), w.dropped)
	}
}
