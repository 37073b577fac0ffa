package netimpair

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrBadUnit means a rate or size string could not be parsed.
var ErrBadUnit = errors.New("netimpair: bad number or unit")

// ParseRate parses a rate in bits per second: a number with an optional
// decimal prefix k, M or G and an optional "bit", "bps" or "bit/s"
// suffix, e.g. "100M", "100Mbit", "1.5G", "800kbps", "0".
func ParseRate(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, suf := range []string{"bit/s", "bps", "bit", "b"} {
		if strings.HasSuffix(t, suf) {
			t = strings.TrimSuffix(t, suf)
			break
		}
	}
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult, t = 1e3, t[:n-1]
		case 'm', 'M':
			mult, t = 1e6, t[:n-1]
		case 'g', 'G':
			mult, t = 1e9, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsInf(v*mult, 0) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("rate %q: %w", s, ErrBadUnit)
	}
	return int64(v * mult), nil
}

// ParseSize parses a byte count with an optional suffix: k/KB (1000),
// KiB (1024), M/MB, MiB, G/GB, GiB, e.g. "64KiB", "256k", "1500".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
		{"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1},
	} {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSuffix(t, u.suf), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) > math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: %w", s, ErrBadUnit)
	}
	return int64(v * float64(mult)), nil
}
