package bm25

import (
	"strings"
	"unicode"

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
// the text has no tokens.
func Tokenize(text string) []string {
	s := []rune(strings.ToLower(norm.NFKC.String(text)))
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
			i = j
		default:
			i++
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
