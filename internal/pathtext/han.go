package pathtext

import "unicode"

// HasHanOutside reports whether s has a Chinese character outside the
// paths it names: whether its prose is Chinese, whatever its directory
// names are ("show /srv/資料/記錄.log" is English).
func HasHanOutside(s string) bool {
	return IndexOutside(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}
