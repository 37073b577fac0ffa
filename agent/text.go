package agent

import (
	"strings"
	"unicode"
)

// IsChinese reports whether s contains any Han character: the agent
// answers in Chinese when the user writes Chinese.
func IsChinese(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

// Chunks splits s into pieces of at most n runes, so a composed answer
// still streams.
func Chunks(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}
