// Package bytesize formats byte counts for people, one way for the CLI's
// progress and every message that quotes a size (quota refusals, index
// notices).
package bytesize

import "fmt"

// Format formats n bytes with a binary unit: "512 B", "1.5 KiB",
// "10.0 MiB".
func Format(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/1024, 0
	for v >= 1023.95 && unit < 5 {
		v /= 1024
		unit++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[unit])
}
