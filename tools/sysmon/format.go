package sysmon

import (
	"math"

	"opsassist/internal/bytesize"
)

// humanBytes formats n the one way every size is quoted (bytesize.Format:
// IEC units, "23.5 GiB"), so the memory and disk figures name the unit
// they are computed in. Sizes beyond int64 are clamped.
func humanBytes(n uint64) string {
	if n > math.MaxInt64 {
		n = math.MaxInt64
	}
	return bytesize.Format(int64(n))
}

// round1 rounds x to one decimal place.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// round2 rounds x to two decimal places.
func round2(x float64) float64 { return math.Round(x*100) / 100 }
