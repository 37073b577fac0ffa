package sysmon

import (
	"fmt"
	"math"
)

// humanBytes formats n with 1024-based units and one decimal, as the tool
// contract does ("23.5GB").
func humanBytes(n uint64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	f := float64(n) / 1024
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f%cB", f, units[i])
}

// round1 rounds x to one decimal place.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// round2 rounds x to two decimal places.
func round2(x float64) float64 { return math.Round(x*100) / 100 }
