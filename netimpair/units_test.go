package netimpair

import (
	"errors"
	"testing"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "1000": 1000, "100M": 100_000_000, "100Mbit": 100_000_000, "1.5G": 1_500_000_000,
		"800kbps": 800_000, "10Mbit/s": 10_000_000, " 2m ": 2_000_000,
	} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "-1M", "fast", "1e400"} {
		if _, err := ParseRate(in); !errors.Is(err, ErrBadUnit) {
			t.Errorf("ParseRate(%q) err = %v", in, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1500": 1500, "64KiB": 65536, "256k": 256000, "64MiB": 64 << 20, "1GB": 1e9, "10B": 10, "1.5KiB": 1536,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "KiB", "-5", "big"} {
		if _, err := ParseSize(in); !errors.Is(err, ErrBadUnit) {
			t.Errorf("ParseSize(%q) err = %v", in, err)
		}
	}
}
