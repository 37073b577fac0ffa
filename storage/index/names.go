package index

import (
	"strings"
	"unicode"

	"opsassist/storage/bm25"
	"opsassist/storage/embed"
)

// File names are evidence of their own: a query naming "nginx.conf", or
// "nginx", or "nginx access log", is about that file whatever its content
// says. The index keeps every file under the keys nameKeys returns
// (Index.byName); nameBoosts matches the query's words against them.

// A nameHit is a file whose name a query mentions.
type nameHit struct {
	// boost is exactNameBoost or stemBoost.
	boost float64
	// exact: the query names the whole file name ("config.yaml").
	exact bool
	// words are the query's words (or glossary expansions) that matched
	// the name without its extension or its parts.
	words []string
}

// nameBoosts returns the files whose name the query mentions and the
// boost each earns: exactNameBoost for a full name ("config.yaml"),
// stemBoost for the name without its extension ("nginx" for nginx.conf)
// or for all the words of a compound name ("nginx access log" or
// "nginx 访问日志" for nginx-access.log). x.mu must be held.
func (x *Index) nameBoosts(text string) map[string]nameHit {
	words := map[string]bool{}
	for _, w := range nameWords(text) {
		words[w] = true
		for _, p := range nameParts(w) {
			words[p] = true
			words[bm25.Stem(p)] = true
		}
	}
	for _, e := range embed.Expand(text) {
		for _, w := range nameWords(e) {
			for _, p := range nameParts(w) {
				words[p] = true
			}
		}
	}
	out := map[string]nameHit{}
	bump := func(fid string, b float64, exact bool, ws ...string) {
		h := out[fid]
		h.boost = max(h.boost, b)
		h.exact = h.exact || exact
		h.words = append(h.words, ws...)
		out[fid] = h
	}
	for w := range words {
		for fid := range x.byName[w] {
			if strings.Contains(w, ".") && w == strings.ToLower(x.files[fid].info.Name) {
				bump(fid, exactNameBoost, true)
			} else {
				bump(fid, stemBoost, false, w)
			}
		}
		for fid := range x.byName[partKey+w] {
			if _, done := out[fid]; done {
				continue
			}
			parts := nameParts(stem(x.files[fid].info.Name))
			all := true
			for _, p := range parts {
				all = all && (words[p] || words[bm25.Stem(p)])
			}
			if all {
				bump(fid, stemBoost, false, parts...)
			}
		}
	}
	return out
}

// namedBy reports whether a file the query names by the words of h (a
// nameHit that is not exact) is named by a word that means something
// here: one that is no stop word and whose concept is not generic in the
// searched chunks (cs, weighed). "配置" expands to configuration, the
// stem of configuration.md, but in a configuration manual config is
// everywhere: it names that file no more than its text would make it
// relevant.
func namedBy(h nameHit, cs []concept) bool {
	if h.exact {
		return true
	}
	for _, w := range h.words {
		if contentStop[w] {
			continue
		}
		generic := false
		for _, c := range cs {
			if !c.specific() && c.hasToken(w) {
				generic = true
			}
		}
		if !generic {
			return true
		}
	}
	return false
}

// hasToken reports whether w (or its stem) is a token of one of c's forms.
func (c concept) hasToken(w string) bool {
	st := bm25.Stem(w)
	for _, f := range c.forms {
		for _, t := range f.toks {
			if t == w || t == st {
				return true
			}
		}
	}
	return false
}

// nameWords splits text into lower-case runs of letters, digits and
// . _ - that contain a Latin letter: candidate file names.
func nameWords(text string) []string {
	var out []string
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-'))
	})
	for _, w := range f {
		w = strings.Trim(w, ".-_")
		if w != "" && strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// partKey prefixes the keys of the words of a compound file name.
const partKey = "part:"

// nameKeys returns the lookup keys of a file name: the full lower-case
// name, the name without its extension (at least three characters long)
// and, for a compound name, each of its words (partKey + word).
func nameKeys(name string) []string {
	n := strings.ToLower(name)
	keys := []string{n}
	st := stem(n)
	if st != n && len(st) >= 3 {
		keys = append(keys, st)
	}
	if ps := nameParts(st); len(ps) > 1 {
		for _, p := range ps {
			keys = append(keys, partKey+p)
		}
	}
	return keys
}

// stem returns a lower-case file name without its extension.
func stem(name string) string {
	n := strings.ToLower(name)
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		return n[:i]
	}
	return n
}

// nameParts splits a lower-case name into its Latin words of two or more
// characters ("nginx-access" → nginx, access); digits-only and CJK parts
// are left out.
func nameParts(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
		if len(p) >= 2 && strings.IndexFunc(p, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 &&
			strings.IndexFunc(p, func(r rune) bool { return r >= 0x80 }) < 0 {
			out = append(out, p)
		}
	}
	return out
}
