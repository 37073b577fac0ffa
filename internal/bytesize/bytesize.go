// Package bytesize formats byte counts for people, one way for the CLI's
// progress and every message that quotes a size (quota refusals, index
// notices).
package bytesize

import (
	"fmt"
	"strings"
)

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

// Short is Format without the ".0" of an exact size, for sizes and
// limits quoted in sentences: 104857600 → "100 MiB", 80000000 →
// "76.3 MiB", but 1025 → "1.0 KiB" (not the same as 1 KiB). Progress
// lines keep Format, whose width does not jump.
func Short(n int64) string {
	s := Format(n)
	i := strings.Index(s, ".0 ")
	if i < 0 {
		return s
	}
	unit := int64(1024)
	for _, u := range "KMGTPE" {
		if strings.HasSuffix(s, string(u)+"iB") {
			break
		}
		unit *= 1024
	}
	if n%unit != 0 {
		return s
	}
	return s[:i] + s[i+2:]
}

// Over formats n, a size past limit, so that it never reads as the limit
// itself: 104857601 against a 100 MiB limit is not "100.0 MiB" but
// "104857601 B", and 150 MiB stays "150 MiB". Messages that refuse a size
// quote it with Over and the limit with Short.
func Over(n, limit int64) string {
	s, l := Short(n), Short(limit)
	if n == limit || (s != l && !sameFigure(s, l)) {
		return s
	}
	return fmt.Sprintf("%d B", n)
}

// sameFigure reports whether two formatted sizes name the same amount:
// "100.0 MiB" and "100 MiB" do.
func sameFigure(a, b string) bool {
	var av, bv float64
	var au, bu string
	if _, err := fmt.Sscanf(a, "%g %s", &av, &au); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(b, "%g %s", &bv, &bu); err != nil {
		return false
	}
	return au == bu && av == bv
}
