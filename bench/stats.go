package bench

import (
	"slices"
	"time"
)

// Ideal is the completion time a transfer of size bytes cannot beat on a
// path of rate bit/s, round trip rtt and random loss: one round trip for
// the handshake, one to ask and get the last byte back, and the bytes at
// the goodput the lossy link leaves, 2×RTT + size / (rate × (1 − loss)).
// It returns 0 for a path without a rate.
func Ideal(size, rate int64, rtt time.Duration, loss float64) time.Duration {
	if rate <= 0 || loss >= 1 {
		return 0
	}
	transfer := float64(size) * 8 / (float64(rate) * (1 - loss))
	return 2*rtt + time.Duration(transfer*float64(time.Second))
}

// Jain is Jain's fairness index of the shares xs:
// (Σx)² / (n × Σx²), 1 when all are equal and 1/n when one takes all.
// It returns 0 for no shares or all zero.
func Jain(xs ...float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// Spread is the shortest, median and longest completion time of rs (the
// median of an even count is the lower middle one, as in Median).
type Spread struct {
	Min, Median, Max time.Duration
}

// SpreadOf returns the spread of rs's elapsed times.
func SpreadOf(rs []Result) Spread {
	if len(rs) == 0 {
		return Spread{}
	}
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = r.Elapsed
	}
	slices.Sort(ds)
	// The median goodput is the median time for one file size; the lower
	// middle goodput is the upper middle time.
	return Spread{Min: ds[0], Median: ds[len(ds)/2], Max: ds[len(ds)-1]}
}

// BDPBytes is the bandwidth-delay product of rate bit/s and round trip
// rtt in bytes: the queue of "one BDP" the bottleneck gets by default.
func BDPBytes(rate int64, rtt time.Duration) int {
	return int(float64(rate) / 8 * rtt.Seconds())
}
