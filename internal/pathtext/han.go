package pathtext

import (
	"strings"
	"unicode"
)

// HasHanOutside reports whether s's prose is Chinese: whether it has a
// Chinese character outside the paths it names, whatever its directory
// names are ("show /srv/資料/記錄.log" is English). Prose with no letter
// in any script says nothing of its language, so then any Chinese
// character counts, a path's included ("「/srv/这个文件是干什么的」").
func HasHanOutside(s string) bool {
	if IndexOutside(s, IsHan) >= 0 {
		return true
	}
	return IndexOutside(s, unicode.IsLetter) < 0 && strings.IndexFunc(s, IsHan) >= 0
}

// IsHan reports whether r is a Chinese character (the Unicode Han
// script): the one test of "Chinese" the module's language choices read.
func IsHan(r rune) bool { return unicode.Is(unicode.Han, r) }
