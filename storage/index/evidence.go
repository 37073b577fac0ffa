package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"opsassist/storage/bm25"
)

// Relevance is judged on the passage a hit shows, not on its file as a
// whole: a README whose "Layout" table is most similar to a question
// about databases, and which names a database in another section, must
// not be shown with the table as if it answered. evidence finds the
// passage.

// maxEvidenceChunks bounds the chunks of one file looked at for a
// specific concept of the query: the cost of judging a hit does not grow
// with its file's size.
const maxEvidenceChunks = 32

// evidence reports whether h's file has a passage that shares a specific
// concept with the query (cs, weighed) and, if the chunk h shows is not
// one, moves h to the most similar passage that is (its chunk, position
// and similarity). The relevance floor still judges the file by its best
// chunk (Hit.Relevant): the passage shown is the one that carries the
// query's words, the similarity that admits the file is its closest
// passage's. x.mu must be held for reading.
//
// The chunks looked at are h's own and those the BM25 postings name,
// within the file, for the rarest token of each of the concepts' words
// (fewest chunks in the partition: "log" of "error log" where error is
// everywhere), at most maxEvidenceChunks per word: postings lookups and
// a check of a few chunk texts of bounded size, whatever the file's
// size. So a passage is missed only when a word's rarest token is in
// more than maxEvidenceChunks of the file's chunks and the passage comes
// after them — for a word the query reached through the glossary, chunks
// where the token is only a piece of a name count (the first 32 chunks
// with "db" all say key3.db, the 33rd "the db listens on 5432"): the
// hit then has no evidence, as if the file did not have it.
func (x *Index) evidence(h *Hit, cs []concept, qvec []float32) bool {
	var spec []concept
	for _, c := range cs {
		if c.specific() {
			spec = append(spec, c)
		}
	}
	m := x.files[h.File.ID]
	if len(spec) == 0 || m == nil || len(m.texts) == 0 {
		return false
	}
	if h.chunk >= 0 && h.chunk < len(m.texts) && hasAny(m.texts[h.chunk], spec) {
		return true
	}
	p := x.parts[m.part]
	if p == nil {
		return false
	}
	inName := map[string]int{}
	for _, t := range bm25.Tokenize(m.info.Name) {
		inName[t]++
	}
	first, last := chunkID(m.info.ID, 0), chunkID(m.info.ID, len(m.texts)-1)
	best, bestSim := -1, float32(0)
	tried := map[int]bool{h.chunk: true}
	for _, c := range spec {
		for _, f := range c.forms {
			if len(f.toks) == 0 || isDateToken(f.toks[0]) {
				continue
			}
			tok := rarest(p, f.toks)
			for _, id := range p.bm.DocsIn(tok, first, last, inName[tok], maxEvidenceChunks) {
				_, n := splitChunkID(id)
				if n < 0 || n >= len(m.texts) || tried[n] {
					continue
				}
				tried[n] = true
				if !hasAny(m.texts[n], spec) {
					continue
				}
				var sim float32
				if nonZero(qvec) {
					sim = m.vecs.dot(n, qvec)
				}
				if best < 0 || sim > bestSim {
					best, bestSim = n, sim
				}
			}
		}
	}
	if best < 0 {
		return false
	}
	h.chunk, h.Chunk, h.Position = best, m.texts[best], m.positions[best]
	if nonZero(qvec) {
		h.best = max(h.best, h.Similarity)
		h.Similarity = bestSim
	}
	return true
}

// rarest is the token of toks in the fewest of p's chunks (the first of
// those tied): the shortest postings to walk, and the fewest chunks that
// can hold all of toks.
func rarest(p *partition, toks []string) string {
	best, least := toks[0], -1
	for _, t := range toks {
		if d := p.bm.DocFreq(t); least < 0 || d < least {
			best, least = t, d
		}
	}
	return best
}

// hasAny reports whether text has one of the concepts (form.in).
func hasAny(text string, cs []concept) bool {
	var toks map[string]bool
	low := strings.ToLower(text)
	for _, c := range cs {
		for _, f := range c.forms {
			if !f.said {
				if standsAlone(low, f.word) {
					return true
				}
				continue
			}
			if toks == nil {
				toks = map[string]bool{}
				for _, t := range bm25.Tokenize(text) {
					toks[t] = true
				}
			}
			all := true
			for _, t := range f.toks {
				all = all && toks[t]
			}
			if all {
				return true
			}
		}
	}
	return false
}

// standsAlone reports whether the lower-case text has word as a word of
// its own: a Chinese word anywhere; a Latin word (or phrase) not joined
// by '.', '-' or '/' to the letters around it, nor inside a longer word
// (an English plural "s" or "es" aside). A word the query reached only
// through the glossary is a guess: "db" for 数据库 is the database in
// "db_host" and "the db", but not in key3.db, --db-password or
// /var/lib/db, where it is a piece of a name that means something else.
func standsAlone(text, word string) bool {
	if word == "" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(word); isHan(r) {
		return strings.Contains(text, word)
	}
	for off := 0; off < len(text); {
		i := strings.Index(text[off:], word)
		if i < 0 {
			return false
		}
		a, b := off+i, off+i+len(word)
		off = a + 1
		if a > 0 {
			r, _ := utf8.DecodeLastRuneInString(text[:a])
			if joins(r) {
				continue
			}
		}
		rest := text[b:]
		if strings.HasPrefix(rest, "es") && !startsWord(rest[2:]) {
			rest = rest[2:]
		} else if strings.HasPrefix(rest, "s") && !startsWord(rest[1:]) {
			rest = rest[1:]
		}
		if r, n := utf8.DecodeRuneInString(rest); n > 0 {
			if isLatinWord(r) || r == '-' || r == '/' {
				continue
			}
			if r == '.' && startsWord(rest[1:]) {
				continue
			}
		}
		return true
	}
	return false
}

// joins reports whether r before a word makes it part of a longer name.
func joins(r rune) bool {
	return isLatinWord(r) || r == '.' || r == '-' || r == '/'
}

// startsWord reports whether s starts with a letter or digit.
func startsWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && isLatinWord(r)
}

// isLatinWord reports whether r is a letter or digit outside CJK.
func isLatinWord(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isHan(r)
}
