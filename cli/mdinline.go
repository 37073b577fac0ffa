package cli

import (
	"strings"
)

// renderInline renders one line's inline Markdown: code spans, strong,
// emphasis, strikethrough, links and autolinks, backslash escapes.
// Markers without a partner stay as written. With the zero style the
// markers are removed and nothing else is added, except a link's URL.
func renderInline(s string, st mdStyle) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := run(s, i, '`')
			if j := strings.Index(s[i+n:], s[i:i+n]); j >= 0 && run(s, i+n+j, '`') == n {
				code := s[i+n : i+n+j]
				if t := strings.TrimSpace(code); t != "" {
					code = t
				}
				b.WriteString(st.wrap(st.code, code))
				i += n + j + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			if out, adv, ok := emphasis(s, i, st); ok {
				b.WriteString(out)
				i += adv
				continue
			}
			n := run(s, i, c)
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '[':
			if text, url, adv, ok := link(s, i); ok {
				text = renderInline(text, st)
				if text == "" || text == url {
					b.WriteString(st.wrap(st.link, url))
				} else {
					b.WriteString(text + " (" + st.wrap(st.link, url) + ")")
				}
				i += adv
				continue
			}
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				u := s[i+1 : i+j]
				if (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) && !strings.ContainsAny(u, " <") {
					b.WriteString(st.wrap(st.link, u))
					i += j + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// emphasis renders the span opened by the delimiter run at s[i]: "**"
// or "__" strong, "*" or "_" emphasis, "***" both, "~~" strikethrough. An opener is
// followed by a non-space and its closer preceded by one; '_' only opens
// and closes at word boundaries, so snake_case stays as written.
func emphasis(s string, i int, st mdStyle) (out string, adv int, ok bool) {
	c := s[i]
	n := run(s, i, c)
	width := min(n, 3)
	if c == '~' && n != 2 {
		return "", 0, false
	}
	if i+n >= len(s) || s[i+n] == ' ' {
		return "", 0, false
	}
	if c == '_' && i > 0 && isWord(s[i-1]) {
		return "", 0, false
	}
	open := s[i : i+width]
	for from := i + width; from < len(s); {
		j := strings.Index(s[from:], open)
		if j < 0 {
			return "", 0, false
		}
		j += from
		k := j + width
		if j > i+width && s[j-1] != ' ' && !(c == '_' && k < len(s) && isWord(s[k])) &&
			!(width == 1 && k < len(s) && s[k] == c) {
			inner := renderInline(s[i+width:j], st)
			code := st.italic
			switch {
			case c == '~':
				code = st.strike
			case width == 2:
				code = st.bold
			case width == 3:
				code = st.bold + st.italic
			}
			return st.wrap(code, inner), k - i, true
		}
		from = j + run(s, j, c)
	}
	return "", 0, false
}

// link parses "[text](url)" at s[i].
func link(s string, i int) (text, url string, adv int, ok bool) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			if j+1 >= len(s) || s[j+1] != '(' {
				return "", "", 0, false
			}
			end := strings.IndexByte(s[j+2:], ')')
			if end < 0 {
				return "", "", 0, false
			}
			url = strings.TrimSpace(s[j+2 : j+2+end])
			if sp := strings.IndexByte(url, ' '); sp >= 0 { // drop a title
				url = url[:sp]
			}
			url = strings.TrimSuffix(strings.TrimPrefix(url, "<"), ">")
			if url == "" {
				return "", "", 0, false
			}
			return s[i+1 : j], url, j + 3 + end - i, true
		}
	}
	return "", "", 0, false
}

// run counts the bytes equal to c from s[i].
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
