package confkv

import "strings"

// parseINI reads INI text: "[section]" headers, "key = value" and
// "key: value" lines, ";" and "#" comment lines. A key before any
// section is at the top level; "[a.b]" is the path a.b.
func parseINI(text string) ([]Entry, error) { return parseINIMode(text, false, true) }

// parseINIMode is parseINI in the strict forms sniffing uses:
// needSection requires a [section] and keys without spaces; colon false
// lets only "=" separate a key from its value ("key: value" lines
// without sections are YAML's).
func parseINIMode(text string, needSection, colon bool) ([]Entry, error) {
	var c collector
	section, sections := "", 0
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			if !strings.HasSuffix(line, "]") || len(line) < 3 {
				return nil, &SyntaxError{Format: INI, Line: i + 1, Msg: "unclosed section header"}
			}
			section = capKey(strings.TrimSpace(line[1 : len(line)-1]))
			sections++
			continue
		}
		seps := "="
		if colon {
			seps = "=:"
		}
		at := strings.IndexAny(line, seps)
		if at <= 0 {
			return nil, &SyntaxError{Format: INI, Line: i + 1, Msg: "a line that is no setting"}
		}
		key := strings.TrimSpace(line[:at])
		if strings.ContainsAny(key, " \t") && (needSection || !colon) {
			return nil, &SyntaxError{Format: INI, Line: i + 1, Msg: "a key with spaces"}
		}
		if err := c.add(join(section, key), iniValue(line[at+1:]), i+1); err != nil {
			return nil, err
		}
	}
	if needSection && sections == 0 {
		return nil, &SyntaxError{Format: INI, Msg: "no section"}
	}
	return c.out, nil
}

// iniValue is a value without its inline " ;" or " #" comment and its
// surrounding quotes.
func iniValue(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
			return s[1 : j+1]
		}
	}
	for _, c := range []string{" ;", " #", "\t;", "\t#"} {
		if i := strings.Index(s, c); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}
