package index

import (
	"strings"
	"unicode/utf8"

	"opsassist/storage/bm25"
	"opsassist/storage/embed"
)

// DefaultMinScore is the default relevance floor (config search.min_score):
// the least cosine similarity a passage needs to be shown as relevant,
// besides sharing a content word with the query (Hit.KeywordMatch).
//
// It is chosen by a rule fixed in advance, on the TRAIN half of the
// retrieval eval only (testdata/evals, retrieval.Split; the held-out
// half is reported, never tuned on): the highest floor, in steps of
// 0.01, that keeps at least 95 % of the train cases' wanted files that
// share a content word with their query (retrieval.ChooseFloor). With
// the builtin embedder that is 0.11 (docs/search.md has the numbers).
// Embedders such as OpenAI's score higher throughout and warrant a
// higher floor.
const DefaultMinScore = 0.11

// Relevant reports whether h is worth showing under the relevance floor
// minScore: its file shares a specific concept with the query
// (KeywordMatch: the keyword side of the hybrid — a question about a
// database is not answered by a passage that mentions none of its words,
// or only a word as common as config, however its vector scores) and the
// cosine similarity of its file's closest chunk is at least minScore
// (the chunk shown, or the one evidence moved it from). The
// floor applies to the similarity of the query and the hit's chunk, not
// to the fused score: reciprocal-rank fusion scores depend only on
// ranks, so they say nothing about how well a file answers. A file the
// query names (NameMatch) is relevant whatever its similarity, so "下载
// config.yaml" still finds config.yaml. A floor of 0 keeps every hit.
func (h Hit) Relevant(minScore float64) bool {
	if h.NameMatch || minScore <= 0 {
		return true
	}
	return h.KeywordMatch && float64(h.FloorSimilarity()) >= minScore
}

// FloorSimilarity is the similarity the relevance floor judges h by: its
// file's closest chunk's, which is Similarity unless the hit shows
// another passage, the closest one with the query's words (evidence).
func (h Hit) FloorSimilarity() float32 { return max(h.Similarity, h.best) }

// contentStop are query words that say nothing about what is asked:
// English function and question words, and the Chinese ones (as the
// tokenizer's bigrams).
var contentStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the is are was were be been to of and or in on for with at by as it its
		this that these those from how what which who whom whose where when why do does did i my me we our you your
		can could should would will shall may might must there here any some all not no yes if then than so
		please show tell find get set use using need want know about into out up down over have has had
		如何 怎么 怎样 什么 哪些 哪里 哪个 一下 可以 是否 为什 么么 多少 有没 没有 我的 我们 你们 这个 那个 请问 帮我 一个 是什 的是
		打开 查看 使用 进行 需要`) {
		contentStop[w] = true
	}
}

// contentTerms are the tokens of a query that name what it asks about:
// its BM25 tokens and glossary expansions (so a Chinese question matches
// English text), without stop words and single Latin letters.
func contentTerms(query string) map[string]bool {
	terms := map[string]bool{}
	add := func(toks []string) {
		for _, t := range toks {
			if contentStop[t] || len(t) == 1 || utf8.RuneCountInString(t) == 1 && t[0] < utf8.RuneSelf {
				continue
			}
			terms[t] = true
		}
	}
	add(bm25.Tokenize(query))
	for _, e := range embed.Expand(query) {
		add(bm25.Tokenize(e))
	}
	return terms
}

// sharesTerm reports whether text has a token of terms.
func sharesTerm(text string, terms map[string]bool) bool {
	if len(terms) == 0 {
		return false
	}
	for _, t := range bm25.Tokenize(text) {
		if terms[t] {
			return true
		}
	}
	return false
}

// fileShares reports whether a chunk of h's file has a token of terms
// in its text. x.mu must be held for reading.
//
// It asks the file's partition's BM25 index, which already knows every
// chunk's terms, rather than re-tokenising the file: a lookup per query
// term whose cost does not grow with the file's size. The BM25 document
// of a chunk is the file's name, the chunk's text and the chunk's date
// tokens (Put), so a term counts only if it occurs more often than in
// the name, and date tokens ("date0617", which the query's expansion may
// carry) are not looked up: the text itself does not contain them.
func (x *Index) fileShares(h Hit, terms map[string]bool) bool {
	m := x.files[h.File.ID]
	if m == nil || len(m.texts) == 0 || len(terms) == 0 {
		return false
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
	for t := range terms {
		if isDateToken(t) {
			continue
		}
		if p.bm.OccursIn(t, first, last, inName[t]) {
			return true
		}
	}
	return false
}

// isDateToken reports whether t has the form of embed.DateTokens'
// tokens: "date" and four digits.
func isDateToken(t string) bool {
	if len(t) != 8 || !strings.HasPrefix(t, "date") {
		return false
	}
	for _, c := range t[4:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
