package confkv

import (
	"strings"
)

// parseEnv reads a .env file: "KEY=value" lines, optionally after
// "export" and a space or tab, a value in double quotes (with \n, \t, \" and \\ escapes),
// in single quotes (as written) or bare (up to an inline " #" comment);
// "#" comment lines.
func parseEnv(text string) ([]Entry, error) {
	var c collector
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimLeft(rest, " \t")
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || !isEnvName(key) {
			return nil, &SyntaxError{Format: Env, Line: i + 1, Msg: "not a KEY=value line"}
		}
		v, ok := envValue(value)
		if !ok {
			return nil, &SyntaxError{Format: Env, Line: i + 1, Msg: "an unclosed quote"}
		}
		if err := c.add(capKey(key), v, i+1); err != nil {
			return nil, err
		}
	}
	return c.out, nil
}

// isEnvName reports whether s is a variable name: letters, digits, "_"
// and ".", not starting with a digit.
func isEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// envValue is a .env value as the shell would read it.
func envValue(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	switch s[0] {
	case '\'':
		j := strings.IndexByte(s[1:], '\'')
		if j < 0 {
			return "", false
		}
		return s[1 : j+1], true
	case '"':
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '"':
				return b.String(), true
			case '\\':
				if i+1 < len(s) {
					i++
					switch s[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(s[i])
					}
					continue
				}
			}
			b.WriteByte(s[i])
		}
		return "", false
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s), true
}
