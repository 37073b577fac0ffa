package confkv

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"opsassist/internal/runecut"
)

// Bounds of what Parse reads.
const (
	// MaxBytes is the longest text parsed, 1 MiB: the planner reads at
	// most 32 KiB of an upload (file_upload's read budget).
	MaxBytes = 1 << 20
	// MaxDepth is the deepest nesting of maps, lists and tables.
	MaxDepth = 32
	// MaxEntries is the most settings one text yields.
	MaxEntries = 10000
	// MaxKeyBytes caps one key of a path (a part between dots): a
	// longer key is cut at a rune boundary and ends in "…", so a path
	// repeats no more than this of each key above it.
	MaxKeyBytes = 256
	// MaxSettingBytes caps the paths and values of one text's settings
	// together: a list of 8000 items under a 16 KiB key must not make
	// 128 MB of paths.
	MaxSettingBytes = 4 << 20
)

var (
	// ErrTooLarge: the text is longer than MaxBytes, or its settings'
	// paths and values longer than MaxSettingBytes.
	ErrTooLarge = errors.New("confkv: text too large")
	// ErrTooDeep: the text nests deeper than MaxDepth.
	ErrTooDeep = errors.New("confkv: nesting too deep")
	// ErrTooMany: the text holds more than MaxEntries settings.
	ErrTooMany = errors.New("confkv: too many settings")
	// ErrFormat: the text is none of the formats read.
	ErrFormat = errors.New("confkv: not a configuration format")
)

// SyntaxError is a text that is malformed for its format.
type SyntaxError struct {
	Format Format
	Line   int // 1-based; 0 when unknown
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("confkv: %s line %d: %s", e.Format, e.Line, e.Msg)
	}
	return fmt.Sprintf("confkv: %s: %s", e.Format, e.Msg)
}

// Format is a configuration file format.
type Format string

// The formats Parse reads.
const (
	YAML       Format = "yaml"
	JSON       Format = "json"
	TOML       Format = "toml"
	INI        Format = "ini"
	Properties Format = "properties"
	Env        Format = "env"
)

// Entry is one setting: a scalar value (or an empty map or list, "{}"
// and "[]") under its key path.
type Entry struct {
	// Path is the dotted key path: map keys joined by ".", list items
	// as "[i]" ("servers[0].host"); an INI or TOML section is the
	// path's head.
	Path string
	// Value is the value as text: a string unquoted, a number, bool or
	// date as written, null as "null".
	Value string
	// Line is the 1-based line the value is on, 0 when unknown.
	Line int
}

// Segments splits a path into its keys and list indexes:
// "servers[0].host" → servers, [0], host.
func Segments(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		for {
			i := strings.IndexByte(part, '[')
			if i < 0 || !strings.HasSuffix(part, "]") {
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			rest := part[i:]
			j := strings.IndexByte(rest, ']')
			out = append(out, rest[:j+1])
			part = rest[j+1:]
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// join appends key to a path, its parts capped (capKey).
func join(path, key string) string {
	key = capKey(key)
	if path == "" {
		return key
	}
	return path + "." + key
}

// capKey cuts each part of a key (between dots) to MaxKeyBytes, at a
// rune boundary, ending in "…". A capped key is capped again unchanged.
func capKey(key string) string {
	if len(key) <= MaxKeyBytes {
		return key
	}
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if len(p) > MaxKeyBytes {
			parts[i] = runecut.Head(p, MaxKeyBytes-len("…")) + "…"
		}
	}
	return strings.Join(parts, ".")
}

// index appends a list index to a path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// collector gathers entries under the MaxEntries and MaxSettingBytes
// bounds.
type collector struct {
	out   []Entry
	bytes int // of the paths and values so far
}

func (c *collector) add(path, value string, line int) error {
	if len(c.out) >= MaxEntries {
		return ErrTooMany
	}
	if c.bytes += len(path) + len(value); c.bytes > MaxSettingBytes {
		return ErrTooLarge
	}
	c.out = append(c.out, Entry{Path: path, Value: value, Line: line})
	return nil
}
