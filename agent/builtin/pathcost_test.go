package builtin

import (
	"strings"
	"testing"

	"opsassist/internal/pathtext"
)

// TestClassifyPathScanLinear: the paths of a message are found in a
// number of steps linear in its length, however many quotes open
// before one far-off closer — counted in the scanner's steps over the
// whole of Classify, not in time.
func TestClassifyPathScanLinear(t *testing.T) {
	perByte := func(n int) float64 {
		in := "cat /var/log/syslog " + strings.Repeat("‘x", n) + "’"
		before := pathtext.Scanned()
		Planner{}.Classify(in, false)
		return float64(pathtext.Scanned()-before) / float64(len(in))
	}
	small := perByte(1 << 10)
	for _, n := range []int{4 << 10, 16 << 10} {
		if got := perByte(n); got > 2*small+1 {
			t.Errorf("%d openers: %.1f steps per byte, %.1f at 1 Ki", n, got, small)
		}
	}
}
