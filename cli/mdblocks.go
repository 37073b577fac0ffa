package cli

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// The line-level parsers of the Markdown renderer (markdown.go).

// opensFence reports whether s (without its indent) opens a fenced code
// block, returning the marker and the info string's first word.
func opensFence(s string) (marker, lang string, ok bool) {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n < 3 {
			continue
		}
		info := strings.TrimSpace(s[n:])
		if c == '`' && strings.ContainsRune(info, '`') {
			return "", "", false
		}
		if f := strings.Fields(info); len(f) > 0 {
			lang = f[0]
		}
		return s[:n], lang, true
	}
	return "", "", false
}

// closesFence reports whether s closes the fence opened with marker.
func closesFence(s, marker string) bool {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == marker[0] {
		n++
	}
	return n >= len(marker) && strings.TrimSpace(t[n:]) == ""
}

// heading parses an ATX heading ("## Title ##").
func heading(s string) (level int, text string, ok bool) {
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(s[level:])
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ")) {
		text = strings.TrimSpace(t)
	}
	return level, text, true
}

// isRule reports whether s is a thematic break: three or more of the
// same '-', '*' or '_', spaces allowed.
func isRule(s string) bool {
	s = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "\t", "")
	if len(s) < 3 || !strings.ContainsRune("-*_", rune(s[0])) {
		return false
	}
	return strings.Count(s, s[:1]) == len(s)
}

// quoteDepth counts a blockquote's leading '>' markers.
func quoteDepth(s string) (depth int, rest string) {
	for strings.HasPrefix(s, ">") {
		depth++
		s = strings.TrimPrefix(strings.TrimPrefix(s, ">"), " ")
	}
	return depth, s
}

// listItem parses a bullet or ordered list item, returning the bullet to
// print: "•" for -, * and +, the source's own number for ordered items,
// so numbering stays what the model wrote across a cut; task items get
// a box.
func listItem(s string) (bullet, rest string, ok bool) {
	if len(s) >= 2 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ' {
		rest = strings.TrimLeft(s[2:], " ")
		switch {
		case strings.HasPrefix(rest, "[ ] "):
			return "•", "☐ " + rest[4:], true
		case strings.HasPrefix(rest, "[x] "), strings.HasPrefix(rest, "[X] "):
			return "•", "☑ " + rest[4:], true
		}
		return "•", rest, true
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n+1 >= len(s) || (s[n] != '.' && s[n] != ')') || s[n+1] != ' ' {
		return "", "", false
	}
	num, err := strconv.Atoi(s[:n])
	if err != nil {
		return "", "", false
	}
	return strconv.Itoa(num) + string(s[n]), strings.TrimLeft(s[n+2:], " "), true
}

// expandTabs replaces tabs with spaces to the next multiple of 4, so the
// code frame does not shift a tab stop.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += runewidth.RuneWidth(r)
	}
	return b.String()
}

// lastRuneStart returns the index of the last rune's first byte in s, 0
// for an empty s.
func lastRuneStart(s string) int {
	j := len(s)
	for j > 0 {
		j--
		if utf8.RuneStart(s[j]) {
			break
		}
	}
	return j
}
