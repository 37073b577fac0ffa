package embed

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// monthNames maps English month names and abbreviations to numbers.
var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// DateTokens returns one canonical token per calendar day text mentions,
// whatever the format ("2024-06-17", "2024/6/17", "20240617", "6月17日",
// "June 17", "17 Jun" all give "date0617"), so a question about "June 17"
// finds 值班交接-20240617.md. Years are ignored: questions rarely repeat
// them. It scans the text once, without regular expressions, because
// every chunk indexed goes through it.
func DateTokens(text string) []string {
	var out []string
	add := func(m, d int) {
		if m < 1 || m > 12 || d < 1 || d > 31 {
			return
		}
		t := fmt.Sprintf("date%02d%02d", m, d)
		for _, o := range out {
			if o == t {
				return
			}
		}
		out = append(out, t)
	}
	// Numeric forms: runs of digits and the separators between them.
	for i := 0; i < len(text); {
		if !isDigit(text[i]) || (i > 0 && isDigit(text[i-1])) {
			i++
			continue
		}
		j := digitsEnd(text, i)
		run := text[i:j]
		switch {
		case len(run) == 8 && isYear(run[:4]):
			add(atoi(run[4:6]), atoi(run[6:8]))
		case len(run) == 4 && isYear(run) && j < len(text) && isDateSep(text[j]):
			sep := text[j]
			k := digitsEnd(text, j+1)
			if k-(j+1) >= 1 && k-(j+1) <= 2 && k < len(text) && text[k] == sep {
				l := digitsEnd(text, k+1)
				if l-(k+1) >= 1 && l-(k+1) <= 2 && (l == len(text) || !isDigit(text[l])) {
					add(atoi(text[j+1:k]), atoi(text[k+1:l]))
					j = l
				}
			}
		case len(run) <= 2:
			// 6月17日, 6 月 5 号
			k := skipSpaces(text, j)
			if strings.HasPrefix(text[k:], "月") {
				k = skipSpaces(text, k+len("月"))
				l := digitsEnd(text, k)
				if l > k && l-k <= 2 {
					e := skipSpaces(text, l)
					if strings.HasPrefix(text[e:], "日") || strings.HasPrefix(text[e:], "号") {
						add(atoi(run), atoi(text[k:l]))
					}
				}
			}
		}
		i = j
	}
	// English forms: "June 17", "Jun. 17th", "17 June".
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if n := j - i; n >= 3 && n <= 9 && (i == 0 || !isDigit(text[i-1])) {
			var buf [9]byte
			for k := 0; k < n; k++ {
				buf[k] = text[i+k] | 0x20
			}
			if m, ok := monthNames[string(buf[:n])]; ok {
				if d, ok := dayAfter(text, j); ok {
					add(m, d)
				} else if d, ok := dayBefore(text, i); ok {
					add(m, d)
				}
			}
		}
		i = j
	}
	return out
}

// dayAfter parses a day number after a month name: " 17", ". 17th".
func dayAfter(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '.' {
		i++
	}
	k := skipSpaces(s, i)
	if k == i && (k >= len(s) || !isDigit(s[k])) {
		return 0, false
	}
	e := digitsEnd(s, k)
	if e == k || e-k > 2 {
		return 0, false
	}
	rest := s[e:]
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasPrefix(strings.ToLower(rest[:min(2, len(rest))]), suf) {
			rest = rest[2:]
			break
		}
	}
	if rest != "" && (isDigit(rest[0]) || isASCIILetter(rest[0])) {
		return 0, false
	}
	return atoi(s[k:e]), true
}

// dayBefore parses a day number before a month name: "17 ", "17th ".
func dayBefore(s string, i int) (int, bool) {
	k := i
	for k > 0 && s[k-1] == ' ' {
		k--
	}
	if k == i {
		return 0, false
	}
	if k >= 2 {
		switch strings.ToLower(s[k-2 : k]) {
		case "st", "nd", "rd", "th":
			k -= 2
		}
	}
	b := k
	for b > 0 && isDigit(s[b-1]) {
		b--
	}
	if b == k || k-b > 2 || (b > 0 && (isASCIILetter(s[b-1]) || isDigit(s[b-1]))) {
		return 0, false
	}
	return atoi(s[b:k]), true
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isDateSep(c byte) bool { return c == '-' || c == '/' || c == '.' }
func isYear(s string) bool  { return s[:2] == "19" || s[:2] == "20" }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func skipSpaces(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
