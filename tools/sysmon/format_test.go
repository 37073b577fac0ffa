package sysmon

import "testing"

func TestHumanBytes(t *testing.T) {
	tests := []struct {
		n    uint64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{5 << 20, "5.0 MiB"},
		// The value is computed in 1024-based units: the label says GiB,
		// not GB (a new-user walk-through read "23.5GB" as decimal).
		{23*(1<<30) + 1<<29, "23.5 GiB"},
		{252 << 30, "252.0 GiB"},
		{3 << 40, "3.0 TiB"},
		{1<<64 - 1, "8.0 EiB"},
	}
	for _, tt := range tests {
		if got := humanBytes(tt.n); got != tt.want {
			t.Errorf("humanBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestRound1(t *testing.T) {
	for in, want := range map[float64]float64{12.34: 12.3, 12.36: 12.4, 0: 0, 99.96: 100} {
		if got := round1(in); got != want {
			t.Errorf("round1(%v) = %v, want %v", in, got, want)
		}
	}
}
