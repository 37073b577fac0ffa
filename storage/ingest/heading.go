package ingest

import "strings"

// sectionHeadings returns, for each line, the text of the nearest ATX
// heading at or before it ("" before the first). Lines inside fenced code
// blocks are not headings.
func sectionHeadings(lines []string) []string {
	out := make([]string, len(lines))
	cur, fence := "", ""
	for i, l := range lines {
		t := strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"):
			fence = "```"
		case strings.HasPrefix(t, "~~~"):
			fence = "~~~"
		default:
			if h, ok := atxHeading(l); ok {
				cur = h
			}
		}
		out[i] = cur
	}
	return out
}

// atxHeading reports the text of an ATX heading line such as
// "## 数据库配置 ##".
func atxHeading(l string) (string, bool) {
	l = strings.TrimSuffix(l, "\r")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > 3 {
		return "", false
	}
	l = l[indent:]
	level := len(l) - len(strings.TrimLeft(l, "#"))
	if level < 1 || level > 6 {
		return "", false
	}
	rest := l[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if s := strings.TrimRight(rest, "#"); s == "" || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") {
		rest = strings.TrimSpace(s)
	}
	return rest, rest != ""
}
