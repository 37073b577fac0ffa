package uploads

import (
	"errors"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadName is returned when a file name has nothing usable left after
// sanitising.
var ErrBadName = errors.New("uploads: unusable file name")

// maxNameBytes keeps names within common file-system limits (255 bytes).
const maxNameBytes = 200

// SanitizeName reduces a client-supplied file name to a safe base name: the
// last element of any path (either separator), without NUL or control
// characters, not "." or "..", no leading dots or spaces, at most 200
// bytes of valid UTF-8.
func SanitizeName(name string) (string, error) {
	name = strings.ToValidUTF8(name, "")
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base("/" + name)
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == 0 || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	if len(name) > maxNameBytes {
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		cutAt := maxNameBytes - len(ext)
		for cutAt > 0 && !utf8.RuneStart(name[cutAt]) {
			cutAt--
		}
		name = name[:cutAt] + ext
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
		return "", ErrBadName
	}
	return name, nil
}
