package builtin

import (
	"strings"
)

// typoVocabulary are the English words the intents key on that are long
// enough to be mistyped recognisably and have no common English word one
// edit away.
var typoVocabulary = []string{
	"memory", "process", "processes", "directory", "download",
	"storage", "running", "document", "documentation", "restart", "reboot",
	"delete", "shutdown", "documents", "directories",
}

// realWords are English words one edit away from a vocabulary word,
// which must not be "corrected".
var realWords = words(`processed processor proceeds progress unloaded directors`)

var reLongWord = compile(`[A-Za-z]{6,}`)

// fixTypos replaces each English word one edit (insertion, deletion,
// substitution or transposition) away from a vocabulary word with that
// word: "memroy" → "memory", "proccesses" → "processes". Parts of paths,
// file names and identifiers are left alone.
func fixTypos(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range reLongWord.FindAllStringIndex(s, -1) {
		if partOfName(s, loc[0], loc[1]) {
			continue
		}
		if v, ok := correction(s[loc[0]:loc[1]]); ok {
			b.WriteString(s[last:loc[0]])
			b.WriteString(v)
			last = loc[1]
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// partOfName reports whether s[i:j] touches a path, file name or
// identifier character.
func partOfName(s string, i, j int) bool {
	name := func(c byte) bool {
		return c == '/' || c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9'
	}
	return i > 0 && name(s[i-1]) || j < len(s) && name(s[j]) && !(s[j] == '.' && (j+1 == len(s) || s[j+1] == ' '))
}

// correction returns the vocabulary word w is a typo of.
func correction(w string) (string, bool) {
	lw := strings.ToLower(w)
	if realWords[lw] {
		return "", false
	}
	for _, v := range typoVocabulary {
		if lw == v {
			return "", false
		}
	}
	for _, v := range typoVocabulary {
		if strings.HasPrefix(lw, v) {
			return "", false // an inflection: "downloads", "processed"
		}
	}
	for _, v := range typoVocabulary {
		if oneEdit(lw, v) {
			return v, true
		}
	}
	return "", false
}

// oneEdit reports whether a and b (ASCII) differ by exactly one edit,
// counting an adjacent transposition as one.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	switch {
	case la == lb:
		i := 0
		for i < la && a[i] == b[i] {
			i++
		}
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la == lb+1:
		return deletion(a, b)
	case lb == la+1:
		return deletion(b, a)
	}
	return false
}

// deletion reports whether removing one byte from long gives short.
func deletion(long, short string) bool {
	i := 0
	for i < len(short) && long[i] == short[i] {
		i++
	}
	return long[i+1:] == short[i:]
}
