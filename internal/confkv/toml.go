package confkv

import (
	"regexp"
	"strconv"
	"strings"
)

// parseTOML reads TOML text: tables, arrays of tables, dotted and
// quoted keys, strings of the four kinds, numbers, booleans, dates,
// arrays and inline tables. It checks what it needs to tell TOML from
// INI — a bare value must be a TOML number, boolean or date — not every
// rule of the specification (a key defined twice is not an error).
func parseTOML(text string) ([]Entry, error) {
	p := &tomlParser{s: text, lines: lineIndex(text), arrays: map[string]int{}}
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.out, nil
}

type tomlParser struct {
	collector
	s     string
	i     int
	lines lineStarts
	table string // the current table's path
	// arrays holds, for each array of tables by its written name, the
	// index of its last element.
	arrays map[string]int
}

func (p *tomlParser) fail(msg string) error {
	return &SyntaxError{Format: TOML, Line: p.lines.at(p.i), Msg: msg}
}

func (p *tomlParser) eof() bool { return p.i >= len(p.s) }

// space skips blanks on the line.
func (p *tomlParser) space() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// blank skips blanks, newlines and comments.
func (p *tomlParser) blank() {
	for !p.eof() {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		case '#':
			for !p.eof() && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

// endOfLine requires the rest of the line to be blank or a comment.
func (p *tomlParser) endOfLine() error {
	p.space()
	if !p.eof() && p.s[p.i] == '#' {
		for !p.eof() && p.s[p.i] != '\n' {
			p.i++
		}
	}
	if !p.eof() && p.s[p.i] == '\r' {
		p.i++
	}
	if !p.eof() && p.s[p.i] != '\n' {
		return p.fail("text after a value")
	}
	return nil
}

func (p *tomlParser) document() error {
	for {
		p.blank()
		if p.eof() {
			return nil
		}
		if p.s[p.i] == '[' {
			if err := p.header(); err != nil {
				return err
			}
			continue
		}
		at := p.i
		keys, err := p.key()
		if err != nil {
			return err
		}
		p.space()
		if p.eof() || p.s[p.i] != '=' {
			return p.fail("a key without '='")
		}
		p.i++
		p.space()
		path := p.table
		for _, k := range keys {
			path = join(path, k)
		}
		if err := p.value(path, 1, at); err != nil {
			return err
		}
		if err := p.endOfLine(); err != nil {
			return err
		}
	}
}

// header reads "[a.b]" or "[[a.b]]".
func (p *tomlParser) header() error {
	array := strings.HasPrefix(p.s[p.i:], "[[")
	p.i++
	if array {
		p.i++
	}
	p.space()
	keys, err := p.key()
	if err != nil {
		return err
	}
	p.space()
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(p.s[p.i:], closing) {
		return p.fail("an unclosed table header")
	}
	p.i += len(closing)
	// The path, each prefix that is an array of tables at its last
	// element.
	path, name := "", ""
	for n, k := range keys {
		name = join(name, strconv.Quote(k))
		path = join(path, k)
		if n == len(keys)-1 && array {
			idx := 0
			if last, ok := p.arrays[name]; ok {
				idx = last + 1
			}
			p.arrays[name] = idx
			path = index(path, idx)
			break
		}
		if idx, ok := p.arrays[name]; ok {
			path = index(path, idx)
		}
	}
	p.table = path
	return p.endOfLine()
}

// key reads a dotted key of bare and quoted parts.
func (p *tomlParser) key() ([]string, error) {
	var keys []string
	for {
		p.space()
		if p.eof() {
			return nil, p.fail("a missing key")
		}
		var k string
		switch c := p.s[p.i]; {
		case c == '"':
			s, err := p.basic()
			if err != nil {
				return nil, err
			}
			k = s
		case c == '\'':
			s, err := p.literal()
			if err != nil {
				return nil, err
			}
			k = s
		default:
			start := p.i
			for !p.eof() && isBare(p.s[p.i]) {
				p.i++
			}
			if p.i == start {
				return nil, p.fail("a missing key")
			}
			k = p.s[start:p.i]
		}
		keys = append(keys, k)
		if len(keys) > MaxDepth {
			return nil, ErrTooDeep
		}
		p.space()
		if p.eof() || p.s[p.i] != '.' {
			return keys, nil
		}
		p.i++
	}
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// value reads the value at path, at nesting depth; at is where its
// setting starts, for the line.
func (p *tomlParser) value(path string, depth, at int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	if p.eof() {
		return p.fail("a missing value")
	}
	line := p.lines.at(at)
	switch c := p.s[p.i]; c {
	case '"', '\'':
		var s string
		var err error
		switch {
		case strings.HasPrefix(p.s[p.i:], `"""`):
			s, err = p.multi(`"""`)
		case strings.HasPrefix(p.s[p.i:], `'''`):
			s, err = p.multi(`'''`)
		case c == '"':
			s, err = p.basic()
		default:
			s, err = p.literal()
		}
		if err != nil {
			return err
		}
		return p.add(path, s, line)
	case '[':
		return p.array(path, depth)
	case '{':
		return p.inline(path, depth)
	}
	start := p.i
	for !p.eof() && strings.IndexByte(" \t\r\n,]}#", p.s[p.i]) < 0 {
		p.i++
	}
	// A date and a time may be separated by a space.
	if reDate.MatchString(p.s[start:p.i]) && p.i+1 < len(p.s) && p.s[p.i] == ' ' && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
		p.i++
		for !p.eof() && strings.IndexByte(" \t\r\n,]}#", p.s[p.i]) < 0 {
			p.i++
		}
	}
	bare := p.s[start:p.i]
	if !reTOMLBare.MatchString(bare) {
		p.i = start
		return p.fail("a value that is no TOML value")
	}
	return p.add(path, bare, line)
}

var (
	reDate     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	reTOMLBare = regexp.MustCompile(`^(true|false|[+-]?(inf|nan)|[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?|0x[0-9A-Fa-f](_?[0-9A-Fa-f])*|0o[0-7](_?[0-7])*|0b[01](_?[01])*|\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?|\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$`)
)

// array reads "[a, b, …]", across lines.
func (p *tomlParser) array(path string, depth int) error {
	start := p.i
	p.i++
	n := 0
	for {
		p.blank()
		if p.eof() {
			return p.fail("an unclosed array")
		}
		if p.s[p.i] == ']' {
			p.i++
			if n == 0 {
				return p.add(path, "[]", p.lines.at(start))
			}
			return nil
		}
		if err := p.value(index(path, n), depth+1, p.i); err != nil {
			return err
		}
		n++
		p.blank()
		if !p.eof() && p.s[p.i] == ',' {
			p.i++
			continue
		}
		p.blank()
		if p.eof() || p.s[p.i] != ']' {
			return p.fail("an array without ',' or ']'")
		}
	}
}

// inline reads "{k = v, …}" on one line.
func (p *tomlParser) inline(path string, depth int) error {
	start := p.i
	p.i++
	p.space()
	if !p.eof() && p.s[p.i] == '}' {
		p.i++
		return p.add(path, "{}", p.lines.at(start))
	}
	for {
		at := p.i
		keys, err := p.key()
		if err != nil {
			return err
		}
		p.space()
		if p.eof() || p.s[p.i] != '=' {
			return p.fail("a key without '='")
		}
		p.i++
		p.space()
		sub := path
		for _, k := range keys {
			sub = join(sub, k)
		}
		if err := p.value(sub, depth+1, at); err != nil {
			return err
		}
		p.space()
		if p.eof() {
			return p.fail("an unclosed inline table")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return nil
		default:
			return p.fail("an inline table without ',' or '}'")
		}
	}
}

// basic reads a "…" string on one line.
func (p *tomlParser) basic() (string, error) {
	p.i++
	var b strings.Builder
	for !p.eof() {
		c := p.s[p.i]
		switch c {
		case '"':
			p.i++
			return b.String(), nil
		case '\n':
			return "", p.fail("an unclosed string")
		case '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
			continue
		}
		b.WriteByte(c)
		p.i++
	}
	return "", p.fail("an unclosed string")
}

// escape reads one escape at p.i into b.
func (p *tomlParser) escape(b *strings.Builder) error {
	p.i++
	if p.eof() {
		return p.fail("an unfinished escape")
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'e':
		b.WriteByte(0x1b)
	case '"', '\\':
		b.WriteByte(c)
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.i+n > len(p.s) {
			return p.fail("a short unicode escape")
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil {
			return p.fail("a bad unicode escape")
		}
		b.WriteRune(rune(v))
		p.i += n
	default:
		return p.fail("an unknown escape")
	}
	return nil
}

// literal reads a '…' string on one line.
func (p *tomlParser) literal() (string, error) {
	p.i++
	end := strings.IndexAny(p.s[p.i:], "'\n")
	if end < 0 || p.s[p.i+end] != '\'' {
		return "", p.fail("an unclosed string")
	}
	s := p.s[p.i : p.i+end]
	p.i += end + 1
	return s, nil
}

// multi reads a """…""" or ”'…”' string; a newline right after the
// opening quotes is not part of it.
func (p *tomlParser) multi(quote string) (string, error) {
	p.i += 3
	if strings.HasPrefix(p.s[p.i:], "\r\n") {
		p.i += 2
	} else if strings.HasPrefix(p.s[p.i:], "\n") {
		p.i++
	}
	if quote == "'''" {
		end := strings.Index(p.s[p.i:], quote)
		if end < 0 {
			return "", p.fail("an unclosed string")
		}
		s := p.s[p.i : p.i+end]
		p.i += end + 3
		return s, nil
	}
	var b strings.Builder
	for !p.eof() {
		if strings.HasPrefix(p.s[p.i:], quote) {
			p.i += 3
			return b.String(), nil
		}
		if p.s[p.i] == '\\' {
			// A backslash at a line's end joins it to the next.
			rest := strings.TrimLeft(p.s[p.i+1:], " \t")
			if strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n") {
				p.i = len(p.s) - len(strings.TrimLeft(rest, " \t\r\n"))
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
			continue
		}
		b.WriteByte(p.s[p.i])
		p.i++
	}
	return "", p.fail("an unclosed string")
}
