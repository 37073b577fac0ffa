package bytesize

import "testing"

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 1<<20 - 1: "1.0 MiB",
		10 << 20: "10.0 MiB", 1 << 20: "1.0 MiB", 3 << 30: "3.0 GiB", 1 << 50: "1.0 PiB",
		1 << 62: "4.0 EiB", 1<<63 - 1: "8.0 EiB", -5: "-5 B",
	} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestShort(t *testing.T) {
	for n, want := range map[int64]string{
		104857600: "100 MiB", 80000000: "76.3 MiB", 512: "512 B", 1024: "1 KiB",
		1536: "1.5 KiB", 1025: "1.0 KiB", 1<<20 - 1: "1.0 MiB", 256 << 20: "256 MiB", 2 << 30: "2 GiB", 65536: "64 KiB",
	} {
		if got := Short(n); got != want {
			t.Errorf("Short(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestOverNeverReadsAsTheLimit: a refused size one byte past the limit
// printed "100.0 MiB, limit 100 MiB".
func TestOverNeverReadsAsTheLimit(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		n, limit int64
		want     string
	}{
		{100*mib + 1, 100 * mib, "104857601 B"},
		{100*mib + 1000, 100 * mib, "104858600 B"},
		{150 * mib, 100 * mib, "150 MiB"},
		{101 * mib, 100 * mib, "101 MiB"},
		{2049, 2048, "2049 B"},
		{5000, 1024, "4.9 KiB"},
	} {
		got := Over(tc.n, tc.limit)
		if got != tc.want {
			t.Errorf("Over(%d, %d) = %q, want %q", tc.n, tc.limit, got, tc.want)
		}
		if sameFigure(got, Short(tc.limit)) {
			t.Errorf("Over(%d, %d) = %q reads as the limit %q", tc.n, tc.limit, got, Short(tc.limit))
		}
	}
}
