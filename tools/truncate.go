package tools

import (
	"fmt"
	"unicode/utf8"
)

// DefaultMaxModelOutput is how much of a tool's output the model sees.
const DefaultMaxModelOutput = 16 << 10

// headTail shortens s to about limit bytes, keeping its head and tail and
// saying, between them, how much was left out. Cuts fall on rune
// boundaries. A limit below zero counts as zero: only the note is left.
func headTail(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	limit = max(limit, 0)
	head := limit * 3 / 4
	tail := limit - head
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	note := fmt.Sprintf("\n…[truncated %d of %d bytes; the full output is kept in the session]…\n", start-head, len(s))
	return s[:head] + note + s[start:], true
}
