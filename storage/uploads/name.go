package uploads

import (
	"errors"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"opsassist/internal/runecut"
)

// ErrBadName is returned when a file name is empty, or nothing but dots,
// spaces and path separators.
var ErrBadName = errors.New("uploads: unusable file name")

// DefaultName is the name an upload gets when sanitising removed every
// character of its name (it was made only of invisible or control
// characters).
const DefaultName = "upload"

// maxNameBytes keeps names within common file-system limits (255 bytes).
const maxNameBytes = 200

// SanitizeName reduces a client-supplied file name to a safe base name: the
// last element of any path (either separator), without NUL, control
// characters, line or paragraph separators, or invisible characters that
// could make a name read other than it is (see invisible), not "." or
// "..", no leading dots or spaces, at most 200 bytes of valid UTF-8. A
// name that had characters but none survive becomes DefaultName; one
// that was empty, or only dots, spaces and separators, is ErrBadName.
func SanitizeName(name string) (string, error) {
	valid := strings.ToValidUTF8(name, "")
	stripped := len(valid) != len(name)
	name = strings.ReplaceAll(valid, "\\", "/")
	name = path.Base("/" + name)
	name = strings.Map(func(r rune) rune {
		if invisible(r) {
			stripped = true
			return -1
		}
		return r
	}, name)
	if len(name) > maxNameBytes {
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		name = runecut.Head(name, maxNameBytes-len(ext)) + ext
	}
	// Strip surrounding spaces and leading dots until nothing changes, so
	// " . ." cannot become ".".
	for {
		trimmed := strings.TrimLeft(strings.TrimSpace(name), ".")
		if trimmed == name {
			break
		}
		name = trimmed
	}
	if name == "" || name == "/" {
		if stripped {
			return DefaultName, nil
		}
		return "", ErrBadName
	}
	return name, nil
}

// invisible reports whether r is removed from file names: control
// characters (Cc), format characters (Cf: the bidi embeddings, overrides
// and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F
// and U+061C, the zero-width U+200B–U+200D, U+2060 and U+FEFF, U+180E,
// the soft hyphen, tag characters…), line and paragraph separators, the
// other default-ignorable code points (Hangul fillers, U+034F…),
// variation selectors, and U+FFFD, which only stands for bytes that were
// not UTF-8.
func invisible(r rune) bool {
	return unicode.IsControl(r) || r == utf8.RuneError ||
		unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}
