package tools

import (
	"fmt"
	"unicode/utf8"
)

// DefaultMaxModelOutput is how much of a tool's output the model sees.
const DefaultMaxModelOutput = 16 << 10

// headTail shortens s to about max bytes, keeping its head and tail and
// saying, between them, how much was left out. Cuts fall on rune
// boundaries.
func headTail(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	head := max * 3 / 4
	tail := max - head
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
