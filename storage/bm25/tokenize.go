package bm25

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenize splits text into the terms the index stores and searches for.
//
// The text is NFKC-normalised and lower-cased, then split into:
//   - Latin words and numbers: maximal runs of letters and digits; any other
//     character separates them. A run joined by single dots between
//     alphanumerics, such as "config.yaml" or "1.2.3", is emitted whole and
//     followed by its parts ("config.yaml", "config", "yaml").
//   - CJK text (Han, Hiragana, Katakana, Hangul): every run is emitted as
//     overlapping character bigrams ("数据库" → "数据", "据库"); a run of a
//     single character is emitted as that unigram.
//
// Tokens are returned in text order and may repeat. Tokenize returns nil if
// the text has no tokens. Tokens may share memory with one lower-cased
// copy of the text: clone one before keeping it alone.
func Tokenize(text string) []string {
	orig := norm.NFKC.String(text)
	low, ok := lowerSameOffsets(orig)
	if !ok {
		return tokenizeRunes(orig) // lower-casing would move byte offsets
	}
	// One allocation, sized for typical text (a token per ~5 bytes).
	out := make([]string, 0, len(low)/5+4)
	for i := 0; i < len(low); {
		r, size := utf8.DecodeRuneInString(low[i:])
		switch {
		case isCJK(r):
			// Bigrams of the run: substrings from one rune start to the
			// start of the rune after next.
			starts := []int{i}
			j := i + size
			for j < len(low) {
				r2, n2 := utf8.DecodeRuneInString(low[j:])
				if !isCJK(r2) {
					break
				}
				starts = append(starts, j)
				j += n2
			}
			if len(starts) == 1 {
				out = append(out, low[i:j])
			}
			for k := 0; k+1 < len(starts); k++ {
				end := j
				if k+2 < len(starts) {
					end = starts[k+2]
				}
				out = append(out, low[starts[k]:end])
			}
			i = j
		case isWord(r):
			j := i + size
			dotted := false
			for j < len(low) {
				r2, n2 := utf8.DecodeRuneInString(low[j:])
				if isWord(r2) {
					j += n2
					continue
				}
				if r2 == '.' && j+1 < len(low) {
					if r3, _ := utf8.DecodeRuneInString(low[j+1:]); isWord(r3) {
						dotted = true
						j++
						continue
					}
				}
				break
			}
			word := low[i:j]
			out = append(out, word)
			if dotted {
				out = append(out, strings.Split(word, ".")...)
			}
			if hasUpper(orig[i:j]) {
				out = appendCamelParts(out, []rune(orig[i:j]))
			}
			if st := Stem(word); st != word {
				out = append(out, st)
			}
			i = j
		default:
			i += size
		}
	}
	return out
}

// lowerSameOffsets lower-cases s rune by rune, as tokenizeRunes does; ok
// is false if s is not valid UTF-8 or a rune's lower case has another
// encoded length.
func lowerSameOffsets(s string) (string, bool) {
	changed := false
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return "", false
			}
		}
		l := unicode.ToLower(r)
		if l != r {
			if utf8.RuneLen(l) != utf8.RuneLen(r) {
				return "", false
			}
			changed = true
		}
	}
	if !changed {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b), true
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// tokenizeRunes is Tokenize for the rare text whose lower-cased form has
// another byte length.
func tokenizeRunes(text string) []string {
	orig := []rune(text)
	s := make([]rune, len(orig))
	for i, r := range orig {
		s[i] = unicode.ToLower(r)
	}
	var out []string
	for i := 0; i < len(s); {
		r := s[i]
		switch {
		case isCJK(r):
			j := i
			for j < len(s) && isCJK(s[j]) {
				j++
			}
			if j-i == 1 {
				out = append(out, string(s[i]))
			}
			for k := i; k+1 < j; k++ {
				out = append(out, string(s[k:k+2]))
			}
			i = j
		case isWord(r):
			j := i
			dotted := false
			for j < len(s) {
				if isWord(s[j]) {
					j++
					continue
				}
				if s[j] == '.' && j+1 < len(s) && isWord(s[j+1]) {
					dotted = true
					j++
					continue
				}
				break
			}
			word := string(s[i:j])
			out = append(out, word)
			if dotted {
				out = append(out, strings.Split(word, ".")...)
			}
			out = appendCamelParts(out, orig[i:j])
			if st := Stem(word); st != word {
				out = append(out, st)
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// Stem strips a common English inflection from a lower-case word
// ("binlogs" → "binlog", "policies" → "policy", "failed" → "fail",
// "rotating" → "rotat"), so "errors" finds "error". Short words, numbers
// and words ending in "ss", "us" or "is" are kept. Tokenize emits the
// stem next to the word, so exact matches still score higher.
func Stem(w string) string {
	if len(w) < 5 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) >= 7:
		return w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) >= 6:
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// appendCamelParts appends the lower-case parts of a camelCase word
// ("readinessProbe" → "readiness", "probe"; "HTTPServer" → "http",
// "server"), if it has more than one.
func appendCamelParts(out []string, w []rune) []string {
	var parts []string
	start := 0
	for k := 1; k < len(w); k++ {
		lowerToUpper := unicode.IsLower(w[k-1]) && unicode.IsUpper(w[k])
		acronymEnd := k+1 < len(w) && unicode.IsUpper(w[k-1]) && unicode.IsUpper(w[k]) && unicode.IsLower(w[k+1])
		if (lowerToUpper || acronymEnd) && w[k-1] != '.' {
			parts = append(parts, strings.ToLower(string(w[start:k])))
			start = k
		}
	}
	if len(parts) == 0 {
		return out
	}
	parts = append(parts, strings.ToLower(string(w[start:])))
	for _, p := range parts {
		if p = strings.Trim(p, "."); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// isCJK reports whether r is a CJK character indexed as bigrams.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	// U+30FC, the katakana prolonged sound mark, has the Common script.
	return r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isWord reports whether r belongs to a Latin-style word or number.
func isWord(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
}
