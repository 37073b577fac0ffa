package pathtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Scanner finds the paths of a message in one pass (see the package
// doc for the rule). The zero value is ready to use.
type Scanner struct {
	// Steps counts the bytes the scanner looked at. Each byte is looked
	// at a bounded number of times — a quote's closer and the first
	// character that cannot be in a quoted path are searched for once
	// and remembered while the scan is before them — so tests hold it to
	// a fixed multiple of the message's length.
	Steps int
	// closerAt is where each quote's closer (quotes[k]) next occurs at
	// or after the last search for it, -1 when it no longer does;
	// closerKnown tells which entries are set for the text being
	// scanned.
	closerAt    [len(quotes)]int
	closerKnown [len(quotes)]bool
	// badAt is where the next character that no quoted path holds
	// (badInQuotes, invalid UTF-8, "://") is, -1 when none is left;
	// badKnown tells whether it is set.
	badAt    int
	badKnown bool
}

// quotes are the opening quotes and their closing ones.
var quotes = [...]struct{ open, close rune }{{'"', '"'}, {'\'', '\''}, {'`', '`'}, {'“', '”'}, {'‘', '’'}, {'「', '」'}, {'『', '』'}}

// badInQuotes are the characters a quoted path never holds.
const badInQuotes = "\n\r\t\"`"

// quoteIndex is the index in quotes of the quote r opens, or -1.
func quoteIndex(r rune) int {
	for k, q := range quotes {
		if q.open == r {
			return k
		}
	}
	return -1
}

// Scan calls yield with each path of text, left to right, until yield
// returns false.
func (s *Scanner) Scan(text string, yield func(Path) bool) {
	s.closerKnown, s.badKnown = [len(quotes)]bool{}, false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		s.Steps++
		if k := quoteIndex(r); k >= 0 {
			if p, end, ok := s.quoted(text, i+size, k); ok {
				if !yield(p) {
					return
				}
				i = end
				continue
			}
			i += size
			continue
		}
		if !isPathRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !isPathRune(r) {
				break
			}
			s.Steps += n
			j += n
		}
		if p, ok := s.token(text[i:j], text[:i]); ok {
			p.Start += i
			p.End = p.Start + len(p.Text)
			if !yield(p) {
				return
			}
		}
		i = j
	}
}

// quoted is the path between the quote quotes[k] opened before from
// and its closer, and the index after the closer; ok is false when the
// quote holds no path (a grep pattern, a command line) or is never
// closed. from only grows during a scan, so the closer and the next
// character no quoted path holds are remembered (closer, bad): however
// many quotes open before one far-off closer, the text between is
// searched once.
func (s *Scanner) quoted(text string, from, k int) (Path, int, bool) {
	c := s.closer(text, from, k)
	if c <= from {
		return Path{}, 0, false // never closed, or empty
	}
	inner := text[from:c]
	at := func(p Path) Path {
		p.Quoted, p.Start, p.End = true, from, c
		return p
	}
	end := c + utf8.RuneLen(quotes[k].close)
	if inner[0] == '/' || strings.HasPrefix(inner, "~/") {
		if b := s.bad(text, from); b >= 0 && b < c {
			return Path{}, 0, false
		}
		return at(Path{Text: inner, Abs: true}), end, true
	}
	// A relative path in quotes is path characters only: stop at the
	// first other one, before any work on the rest.
	slash := false
	for j := from; j < c; {
		r, n := utf8.DecodeRuneInString(text[j:])
		s.Steps += n
		if !isPathRune(r) {
			return Path{}, 0, false
		}
		slash = slash || r == '/' && j > from
		j += n
	}
	if !slash {
		return Path{}, 0, false
	}
	if p, ok := s.relative(inner, 0); ok && p.Text == inner {
		return at(p), end, true
	}
	return Path{}, 0, false
}

// closer is where quotes[k]'s closer next occurs at or after from, -1
// when it does not.
func (s *Scanner) closer(text string, from, k int) int {
	if s.closerKnown[k] && (s.closerAt[k] < 0 || s.closerAt[k] >= from) {
		return s.closerAt[k]
	}
	at := -1
	if n := strings.IndexRune(text[from:], quotes[k].close); n >= 0 {
		at = from + n
		s.Steps += n
	} else {
		s.Steps += len(text) - from
	}
	s.closerAt[k], s.closerKnown[k] = at, true
	return at
}

// bad is where the next character at or after from that no quoted path
// holds is: one of badInQuotes, a byte of invalid UTF-8, or the start
// of "://"; -1 when there is none.
func (s *Scanner) bad(text string, from int) int {
	if s.badKnown && (s.badAt < 0 || s.badAt >= from) {
		return s.badAt
	}
	at := -1
	for j := from; j < len(text); {
		r, n := utf8.DecodeRuneInString(text[j:])
		s.Steps += n
		if r == utf8.RuneError && n == 1 || strings.ContainsRune(badInQuotes, r) || r == ':' && strings.HasPrefix(text[j:], "://") {
			at = j
			break
		}
		j += n
	}
	s.badAt, s.badKnown = at, true
	return at
}

// isPathRune reports whether r may be part of an unquoted path.
func isPathRune(r rune) bool {
	switch r {
	case '/', '_', '.', '-', '*', '+', '@', '~':
		return true
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// token is the path a run of path characters holds; before is the text
// before the run.
func (s *Scanner) token(tok, before string) (Path, bool) {
	slash := strings.IndexByte(tok, '/')
	if slash < 0 || !boundary(before) {
		return Path{}, false
	}
	prefix := tok[:slash]
	if prefix == "" || prefix == "~" {
		return s.absolute(tok, 0)
	}
	s.Steps += len(prefix)
	last, _ := utf8.DecodeLastRuneInString(prefix)
	if IsHan(last) {
		// Chinese glued before a slash: "看下/etc/nginx".
		if rest := tok[slash+1:]; rest != "" && isASCIIName(rest[0]) {
			return s.absolute(tok, slash)
		}
		return s.relative(tok, 0)
	}
	if strings.HasSuffix(prefix, "~") {
		// "看下~/x".
		if r, _ := utf8.DecodeLastRuneInString(prefix[:len(prefix)-1]); IsHan(r) {
			return s.absolute(tok, len(prefix)-1)
		}
	}
	// Chinese glued before a relative path: "看下workspace/app.log".
	start := 0
	for i, r := range prefix {
		if IsHan(r) {
			start = i + utf8.RuneLen(r)
		}
	}
	return s.relative(tok, start)
}

// boundary reports whether a path may start after before: at the
// start, after a space, quote, bracket, comma, Chinese or a colon that
// ends no scheme, drive letter or remote host ("路径:/var/log", not
// "http://", "C:/", "root@10.0.0.1:/etc/hosts", "[::1]:/x"); never
// after a variable ("${HOME}/x", "$HOME/x").
func boundary(before string) bool {
	r, n := utf8.DecodeLastRuneInString(before)
	switch {
	case n == 0:
		return true
	case r == ':':
		p, _ := utf8.DecodeLastRuneInString(before[:len(before)-1])
		return !isASCIIName(byte(min(p, 0x7f))) && p != ']'
	}
	return !strings.ContainsRune(`=$|<>&%#\^}`, r)
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// isASCIIName reports whether b may start an ASCII file name.
func isASCIIName(b byte) bool {
	return isASCIILetter(rune(b)) || b >= '0' && b <= '9' || b == '_' || b == '.' || b == '-'
}

// absolute is the absolute (or ~) path tok holds from start, prose
// glued after it cut off.
func (s *Scanner) absolute(tok string, start int) (Path, bool) {
	p := trimEnd(s.cutProse(tok[start:]))
	if p == "" || p == "~" {
		return Path{}, false
	}
	return Path{Text: p, Abs: true, Start: start}, true
}

// relative is the relative path tok holds from start, if it is one: a
// name, then a slash, all in ASCII, ending in a file extension, starting
// with ./ or ../ or ending in a slash, and not a host name.
func (s *Scanner) relative(tok string, start int) (Path, bool) {
	p := trimEnd(s.cutProse(tok[start:]))
	s.Steps += 2 * len(p) // the checks below
	first, rest, ok := strings.Cut(p, "/")
	if !ok || first == "" || first == "~" || hostName(first) {
		return Path{}, false
	}
	explicit := first == "." || first == ".." || strings.HasSuffix(p, "/") // "./资料", "资料/"
	if !asciiOnly(p) && !explicit && (rest == "" || !HasExtension(p)) {
		return Path{}, false // "内存/磁盘", "CPU/内存使用率"
	}
	return Path{Text: p, Start: start}, true
}

// HasExtension reports whether the last component of p ends in a file
// extension: a dot, an ASCII letter, then at most seven ASCII letters or
// digits (.log, .yaml, .gz). It reads at most the last nine bytes of p
// (and the one before its dot).
func HasExtension(p string) bool {
	from := max(len(p)-9, 0)
	dot := strings.LastIndexByte(p[from:], '.')
	if dot < 0 {
		return false
	}
	dot += from
	if dot == len(p)-1 || strings.Contains(p[dot:], "/") {
		return false
	}
	if !isASCIILetter(rune(p[dot+1])) {
		return false
	}
	for _, c := range []byte(p[dot+1:]) {
		if !isASCIILetter(rune(c)) && (c < '0' || c > '9') {
			return false
		}
	}
	return dot > 0 && p[dot-1] != '/'
}

// topLevelDomains end the host names a URL without its scheme starts
// with.
var topLevelDomains = []string{".com", ".net", ".org", ".io", ".cn", ".dev", ".co", ".info", ".me", ".app", ".cloud", ".edu", ".gov"}

// hostName reports whether a first component is a host name: a URL
// without its scheme.
func hostName(s string) bool {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "www.") {
		return true
	}
	for _, d := range topLevelDomains {
		if strings.HasSuffix(l, d) && len(l) > len(d) {
			return true
		}
	}
	return false
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// trimEnd trims the dots ending a sentence from p, unless they are a
// "." or ".." segment ("ls /var/log/..").
func trimEnd(p string) string {
	run := len(p) - len(strings.TrimRight(p, "."))
	if run == 0 {
		return p
	}
	before := p[:len(p)-run]
	if run <= 2 && (before == "" || strings.HasSuffix(before, "/")) {
		return p
	}
	return before
}
