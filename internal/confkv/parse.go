package confkv

import (
	"encoding/json"
	"errors"
	"path"
	"strings"
)

// Parse reads a configuration text into its settings, in the order they
// are written. The format is the one name's extension says (".yaml",
// ".json", ".toml", ".ini", ".properties", ".env", and ".env.local" and
// the like), else the one the text is: each format is tried, strictest
// first, and the first that reads the whole text wins. A text its name
// gives a format for but that does not parse as it is a *SyntaxError.
// A leading byte order mark is not part of the text.
func Parse(name, text string) (Format, []Entry, error) {
	if len(text) > MaxBytes {
		return "", nil, ErrTooLarge
	}
	text = strings.TrimPrefix(text, bom)
	if f, ok := FormatOf(name); ok {
		entries, err := ParseAs(f, text)
		return f, entries, err
	}
	for _, try := range sniffOrder(text) {
		f := try.format
		entries, err := try.parse(text)
		if err == nil && len(entries) > 0 {
			return f, entries, nil
		}
		if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrTooDeep) || errors.Is(err, ErrTooMany) {
			return f, nil, err
		}
	}
	return "", nil, ErrFormat
}

// FormatOf is the format a file's name says, if it says one. ".conf" and
// ".cfg" say none: they are INI, YAML or a program's own syntax.
func FormatOf(name string) (Format, bool) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	if base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		return Env, true
	}
	switch path.Ext(base) {
	case ".yaml", ".yml":
		return YAML, true
	case ".json":
		return JSON, true
	case ".toml":
		return TOML, true
	case ".ini":
		return INI, true
	case ".properties":
		return Properties, true
	}
	return "", false
}

// sniffer is a format to try on a text and its parser in the strict
// form sniffing uses.
type sniffer struct {
	format Format
	parse  func(string) ([]Entry, error)
}

// sniffOrder is the formats to try on a text without a telling name,
// the strictest first: TOML before INI (a TOML text is often an INI
// text too, with its quotes left in the values); INI only with a
// [section]; YAML only as a map or list; last, "key = value" lines
// without sections. A program's own syntax (nginx's "listen 80;") is
// none of them.
func sniffOrder(text string) []sniffer {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	if (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return []sniffer{{JSON, parseJSON}}
	}
	return []sniffer{
		{TOML, parseTOML},
		{INI, func(s string) ([]Entry, error) { return parseINIMode(s, true, true) }},
		{Env, parseEnv},
		{YAML, parseYAML},
		{Properties, func(s string) ([]Entry, error) { return parseINIMode(s, false, false) }},
	}
}

// bom is the byte order mark an editor may write first: no part of the
// first key.
const bom = "\ufeff"

// ParseAs reads text as the format f (a leading byte order mark aside).
func ParseAs(f Format, text string) ([]Entry, error) {
	if len(text) > MaxBytes {
		return nil, ErrTooLarge
	}
	text = strings.TrimPrefix(text, bom)
	switch f {
	case YAML:
		return parseYAML(text)
	case JSON:
		return parseJSON(text)
	case TOML:
		return parseTOML(text)
	case INI:
		return parseINI(text)
	case Properties:
		return parseProperties(text)
	case Env:
		return parseEnv(text)
	}
	return nil, ErrFormat
}
