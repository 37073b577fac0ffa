package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ellipsis marks a snippet that was cut.
const ellipsis = "…"

// Snippet returns s cut to at most n runes, readable on its own and as
// Markdown:
//   - the cut falls at the end of a line if one ends in the second half of
//     the budget, else after a space, else between two CJK characters;
//     never inside a rune or a Latin word (a single word longer than half
//     the budget is cut at the budget);
//   - Markdown markers left dangling at the cut (a lone "**" or "`") are
//     dropped, and constructs the cut leaves open are closed: a code fence
//     with its own fence line, inline code with its backtick run, bold
//     with "**";
//   - list items keep their original numbers (nothing is renumbered).
//
// A cut snippet ends in "…" (after the closers; on a line of its own
// after a closed fence). s itself is returned when
// it fits; the closers and the ellipsis may take the result a few runes
// past n.
func Snippet(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	body := cutBody(s, n)
	c := closers(body)
	if strings.HasPrefix(c, "\n") { // a closing fence line takes nothing after it
		return body + c + "\n" + ellipsis
	}
	return body + c + " " + ellipsis
}

// cutBody returns the prefix of s (longer than n runes) a snippet keeps:
// cut at a boundary, without trailing space or dangling markers.
func cutBody(s string, n int) string {
	cut := cutPoint(s, runeOffset(s, n))
	return strings.TrimRightFunc(s[:cut], func(r rune) bool {
		return unicode.IsSpace(r) || r == '*' || r == '`' || r == '_' || r == '~'
	})
}

// runeOffset returns the byte offset of s's n-th rune (len(s) if s is
// shorter).
func runeOffset(s string, n int) int {
	i := 0
	for j := range s {
		if i == n {
			return j
		}
		i++
	}
	return len(s)
}

// cutPoint returns where to cut s at byte limit or before: at limit if
// that is not inside a word, else after the last newline in the second
// half, else after the last space there, else at the last boundary that
// is not inside a Latin word (a CJK character is a word of its own).
func cutPoint(s string, limit int) int {
	if !splitsWord(s, limit) {
		return limit
	}
	half := limit / 2
	if i := strings.LastIndexByte(s[:limit], '\n'); i >= half && i > 0 {
		return i
	}
	if i := strings.LastIndexFunc(s[:limit], unicode.IsSpace); i >= half && i > 0 {
		return i
	}
	for j := limit; j > half; {
		if !splitsWord(s, j) {
			return j
		}
		_, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
	}
	return limit
}

// splitsWord reports whether cutting s at byte j splits a word.
func splitsWord(s string, j int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:j])
	after, _ := utf8.DecodeRuneInString(s[j:])
	return inWord(before) && inWord(after)
}

// inWord reports whether r belongs to a word that must not be split: a
// letter or digit of a script that separates words with spaces. CJK
// characters are words of their own.
func inWord(r rune) bool {
	if r == utf8.RuneError {
		return false
	}
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' || r == '/'
}

// closers returns what closes the Markdown constructs s leaves open at its
// end: an open code fence, or else an open inline code span and bold in
// the last paragraph.
func closers(s string) string {
	var fence string // the open fence's marker, "" outside
	para := []string{}
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) <= 3 {
			if m := fenceMarker(t); m != "" {
				switch {
				case fence == "":
					fence, para = m, nil
					continue
				case m[0] == fence[0] && len(m) >= len(fence) && strings.TrimSpace(t[len(m):]) == "":
					fence = ""
					continue
				}
			}
		}
		if fence != "" {
			continue
		}
		if strings.TrimSpace(line) == "" {
			para = nil
			continue
		}
		para = append(para, line)
	}
	if fence != "" {
		return "\n" + fence
	}
	return inlineClosers(strings.Join(para, "\n"))
}

// fenceMarker returns the run of ``` or ~~~ (three or more) t starts with,
// or "".
func fenceMarker(t string) string {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	i := 0
	for i < len(t) && t[i] == t[0] {
		i++
	}
	if i < 3 || (t[0] == '`' && strings.IndexByte(t[i:], '`') >= 0) {
		return ""
	}
	return t[:i]
}

// inlineClosers returns the backtick run closing an open code span in p,
// then "**" if a bold is open outside code.
func inlineClosers(p string) string {
	code := 0 // length of the open code span's backtick run, 0 outside
	bold := false
	for i := 0; i < len(p); {
		switch {
		case p[i] == '\\' && code == 0 && i+1 < len(p):
			i += 2
		case p[i] == '`':
			j := i
			for j < len(p) && p[j] == '`' {
				j++
			}
			switch {
			case code == 0:
				code = j - i
			case code == j-i:
				code = 0
			}
			i = j
		case code == 0 && strings.HasPrefix(p[i:], "**"):
			bold = !bold
			i += 2
		default:
			i++
		}
	}
	out := ""
	if code > 0 {
		out = strings.Repeat("`", code)
	}
	if bold {
		out += "**"
	}
	return out
}
