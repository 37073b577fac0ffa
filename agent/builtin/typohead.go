package builtin

import (
	"strings"
)

// reCommandHead is a message that looks like a command line: a short
// word alone, or followed by a flag, a path or a file name.
var reCommandHead = compile(`^([a-z]{3,6})(\s+(?:-|/|~|\S*\.\w)\S*.*)?$`)

// fixCommandHead repairs the command name of a command line that is a
// typo of a command the tiers run ("cta /etc/hostname" → cat, "tial -n
// 100 /var/log/messages" → tail, "pdw" → pwd): two letters swapped, or
// one letter left out, the first letter right. Only a line's first word
// is bent, and only when it names no command itself and the rest looks
// like arguments (or there is no rest, and the command is no English
// word), so prose keeps its words.
func (c *commands) fixCommandHead(s string) string {
	m := reCommandHead.FindStringSubmatch(s)
	if m == nil || c.allowed(m[1]) || c.askable(m[1]) || realWords[m[1]] {
		return s
	}
	w := m[1]
	for _, n := range append(c.tiers.Names(), askNames(c.tiers.Ask())...) {
		if n[0] != w[0] || m[2] == "" && proseNames[n] {
			continue
		}
		if len(n) == len(w) && transposed(w, n) || len(n) == len(w)+1 && dropsOne(n, w) {
			return n + strings.TrimPrefix(s, w)
		}
	}
	return s
}

// dropsOne reports whether short is long with one letter left out.
func dropsOne(long, short string) bool {
	for i := range long {
		if long[:i]+long[i+1:] == short {
			return true
		}
	}
	return false
}
