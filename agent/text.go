package agent

import (
	"opsassist/chat"
	"opsassist/internal/runecut"
)

// IsChinese reports whether s contains any Han character: the agent
// answers in Chinese when the user writes Chinese. It is chat.IsChinese,
// the one rule the chat core's own messages follow too.
func IsChinese(s string) bool { return chat.IsChinese(s) }

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

// maxStatus caps the text of a progress status: tool arguments and
// errors may quote a whole message, and a status is one line for the
// user, not the record (the tool message keeps the result).
const maxStatus = 1024

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return runecut.Head(s, n) + "…"
}
