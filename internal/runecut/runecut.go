// Package runecut cuts UTF-8 text to a byte budget without splitting a
// rune: the one place the cut-at-a-rune-boundary loop is written, for
// every status line, log field, error message and chunk that is capped in
// bytes.
package runecut

import "unicode/utf8"

// Head returns the longest prefix of s of at most n bytes that ends on a
// rune boundary. It returns s when s fits, and "" when n <= 0.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Tail returns the longest suffix of s of at most n bytes that starts on
// a rune boundary. It returns s when s fits, and "" when n <= 0.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
