package builtin

import "testing"

func TestFixTypos(t *testing.T) {
	tests := []struct{ in, want string }{
		{"check memroy usage", "check memory usage"},
		{"show me the proccesses", "show me the processes"},
		{"dwonload config.yaml", "download config.yaml"},
		{"Memory usage", "Memory usage"},
		{"processed requests", "processed requests"},
		{"downloads folder", "downloads folder"},
		{"download /home/user/documents/report.pdf", "download /home/user/documents/report.pdf"},
		{"cat /srv/memroy.txt", "cat /srv/memroy.txt"},
		{"内存memroy", "内存memory"},
	}
	for _, tt := range tests {
		if got := fixTypos(tt.in); got != tt.want {
			t.Errorf("fixTypos(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOneEdit(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		ok   bool
	}{
		{"memroy", "memory", true}, {"memry", "memory", true}, {"memoryy", "memory", true},
		{"nemory", "memory", true}, {"memory", "memory", false}, {"mmeroy", "memory", false},
		{"mem", "memory", false}, {"ab", "ba", true}, {"abc", "acb", true}, {"abcd", "badc", false},
	} {
		if got := oneEdit(tt.a, tt.b); got != tt.ok {
			t.Errorf("oneEdit(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
