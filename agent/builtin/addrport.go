package builtin

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"opsassist/internal/confkv"
	"opsassist/tools"
)

// addrLine is the line an address port was read from: its key, its
// value and its number (from 1).
type addrLine struct {
	key, value string
	n          int
}

// addressPort answers "X 的端口" ("http 的端口是多少？") from a line of a
// file that does not parse as a configuration whose key names X and
// holds an address: the key is X itself or X's port key (X.port,
// X_port, x-port, xPort), and its value a host:port or a URL with a
// port ("http: 127.0.0.1:8080" → 8080). It returns the port and the
// line, or ok false when no such key holds one.
func addressPort(content string, subject wordGroup) (port string, at addrLine, ok bool) {
	for i, raw := range strings.Split(content, "\n") {
		if isComment(raw) {
			continue
		}
		t := strings.TrimPrefix(strings.TrimSpace(raw), "- ")
		end := strings.IndexAny(t, ":=")
		if end <= 0 {
			continue
		}
		written := strings.Trim(strings.TrimSpace(t[:end]), `"'`)
		key := strings.ToLower(written)
		if !namesSubject(key, subject) {
			continue
		}
		v := valueOf(t[end+1:])
		if isPort(v) && !strings.HasSuffix(key, "port") {
			// A bare number is a port only under a port key ("web: 1"
			// is a count or a flag, not web's port).
			continue
		}
		if p := portOf(v); p != "" {
			return p, addrLine{key: written, value: v, n: i + 1}, true
		}
	}
	return "", addrLine{}, false
}

// namesSubject reports whether a key is the subject's own key or its port
// key, in the separators config files use.
func namesSubject(key string, subject wordGroup) bool {
	for _, w := range subject {
		for _, k := range []string{w, w + ".port", w + "_port", w + "-port", w + "port", w + ".addr", w + "_addr", w + ".address", w + ".listen"} {
			if key == k {
				return true
			}
		}
	}
	return false
}

// valueOf is a config value without its trailing comment, quotes and
// JSON punctuation.
func valueOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, " ;"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(strings.TrimSpace(s), ",")
	return strings.Trim(strings.TrimSpace(s), `"'`)
}

// portOf is the port of an address ("127.0.0.1:8080", "[::1]:80",
// "http://db:5432/x", "jdbc:postgresql://db:5432/x") or a bare port number (1–65535), else "".
func portOf(v string) string {
	if v == "" {
		return ""
	}
	if isPort(v) {
		return v
	}
	if strings.Contains(v, "://") {
		// A JDBC URL is "jdbc:" before a URL.
		if u, err := url.Parse(strings.TrimPrefix(v, "jdbc:")); err == nil && isPort(u.Port()) {
			return u.Port()
		}
		return ""
	}
	if _, p, err := net.SplitHostPort(v); err == nil && isPort(p) {
		return p
	}
	return ""
}

// isPort reports whether s is a TCP/UDP port as written in a config: a
// number 1–65535 without a leading zero.
func isPort(s string) bool {
	if s == "" || len(s) > 5 || s[0] == '0' {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1 && n <= 65535
}

// spaceHanLatin puts a space between Han characters and Latin letters or
// digits that touch ("找到http端口" → "找到 http 端口"), as mixed Chinese
// and English text is written.
func spaceHanLatin(s string) string {
	var b strings.Builder
	var prev rune
	for i, r := range s {
		if i > 0 && (unicode.Is(unicode.Han, prev) && isLatin(r) || isLatin(prev) && unicode.Is(unicode.Han, r)) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

func isLatin(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// portAnswer says the port of the address a setting holds, with the
// setting as "key = value" (its value as shownValue shows it) and its
// line.
func portAnswer(zh bool, name, subject, port, shown string, line int) string {
	if zh {
		return name + spaceHanLatin(fmt.Sprintf(" 里 %s 的端口是 %s", subject, port)) + "（" + codeSpan(shown) + fmt.Sprintf("，第 %d 行）。", line)
	}
	return fmt.Sprintf("The %s port in %s is %s (%s, line %d).", subject, name, port, codeSpan(shown), line)
}

// shownAddrLine is a line's address setting as an answer shows it:
// "key = value", a secret key's value hidden and the secrets inside a
// value too (shownValue).
func shownAddrLine(at addrLine) string {
	return shownPath(at.key) + " = " + shownValue(setting{Entry: confkv.Entry{Path: at.key, Value: at.value, Line: at.n}, secret: tools.SecretKey(at.key)})
}
