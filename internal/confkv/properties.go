package confkv

import (
	"strconv"
	"strings"
)

// parseProperties reads Java .properties text: "key=value", "key:
// value" or "key value" lines, "#" and "!" comment lines, a line ending
// in an odd number of backslashes continued on the next, and the
// escapes \t \n \r \f \uXXXX and an escaped separator or space.
func parseProperties(text string) ([]Entry, error) {
	var c collector
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		first := i
		line := strings.TrimLeft(strings.TrimSuffix(lines[i], "\r"), " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		if continued(line) && i+1 < len(lines) {
			// One builder for the whole logical line: linear in its
			// length, however many lines it continues on.
			var b strings.Builder
			for continued(line) && i+1 < len(lines) {
				b.WriteString(line[:len(line)-1])
				i++
				line = strings.TrimLeft(strings.TrimSuffix(lines[i], "\r"), " \t\f")
			}
			b.WriteString(line)
			line = b.String()
		}
		key, rest, err := propKey(line)
		if err != nil {
			return nil, &SyntaxError{Format: Properties, Line: first + 1, Msg: err.Error()}
		}
		value, err := unescapeProp(rest)
		if err != nil {
			return nil, &SyntaxError{Format: Properties, Line: first + 1, Msg: err.Error()}
		}
		if err := c.add(capKey(key), value, first+1); err != nil {
			return nil, err
		}
	}
	return c.out, nil
}

// continued reports whether a line ends in an odd number of
// backslashes.
func continued(line string) bool {
	n := 0
	for n < len(line) && line[len(line)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// propKey splits a line into its unescaped key and the raw value after
// the separator.
func propKey(line string) (key, rest string, err error) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if strings.IndexByte("=: \t\f", line[i]) >= 0 {
			end = i
			break
		}
	}
	key, err = unescapeProp(line[:end])
	if err != nil {
		return "", "", err
	}
	rest = strings.TrimLeft(line[end:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return key, rest, nil
}

// escapeError is a \u escape without four hex digits.
type escapeError struct{}

func (escapeError) Error() string { return `a \u escape without four hex digits` }

// unescapeProp resolves a .properties string's escapes.
func unescapeProp(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", escapeError{}
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", escapeError{}
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
