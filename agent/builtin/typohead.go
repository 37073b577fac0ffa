package builtin

// reCommandHead is a message that looks like a command line: a short
// word alone, or followed by a flag, a path or a file name.
var reCommandHead = compile(`^((?:(?:run|exec|execute)\s+|(?:执行|运行|跑)(?:一下|下)?\s*)?)([a-z]{3,6})(\s+(?:-|/|~|\S*\.\w)\S*.*)?$`)

// fixCommandHead repairs the command name of a command line that is a
// typo of a command the tiers run ("cta /etc/hostname" → cat, "tial -n
// 100 /var/log/messages" → tail, "pdw" → pwd): two letters swapped, or
// one letter left out, the first letter right. Only a line's first word
// is bent, and only when it names no command itself and the rest looks
// like arguments (or there is no rest, and the command is no English
// word), so prose keeps its words. A line asked to be run ("exec fre
// -g", "执行 dfh -h") is a command line after its run word.
func (c *commands) fixCommandHead(s string) string {
	m := reCommandHead.FindStringSubmatch(s)
	if m == nil || c.allowed(m[2]) || c.askable(m[2]) || realWords[m[2]] {
		return s
	}
	run, w, rest := m[1], m[2], m[3]
	for _, n := range append(c.tiers.Names(), askNames(c.tiers.Ask())...) {
		if n[0] != w[0] || rest == "" && (proseNames[n] || run != "") {
			continue
		}
		if len(n) == len(w) && transposed(w, n) || len(n) == len(w)+1 && dropsOne(n, w) {
			return run + n + rest
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
