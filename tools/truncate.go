package tools

import (
	"fmt"

	"opsassist/internal/runecut"
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
	head := runecut.Head(s, limit*3/4)
	tail := runecut.Tail(s, limit-limit*3/4)
	note := fmt.Sprintf("\n…[truncated %d of %d bytes; the full output is kept in the session]…\n", len(s)-len(head)-len(tail), len(s))
	return head + note + tail, true
}
