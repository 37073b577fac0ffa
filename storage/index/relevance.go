package index

import "strings"

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

// DefaultStrongScore is the similarity at which a relevant hit is
// presented as relevant rather than as possibly related: with the
// builtin embedder a relevant hit under it is the right file too rarely
// to say "found". It is chosen by a rule fixed in advance on the TRAIN
// half of the retrieval eval only (retrieval.ChooseStrong): the lowest
// level, in steps of 0.01, at which at least 90 % of the train cases
// whose first presented hit reaches it have the wanted file there (and
// at least 5 do). docs/evals.md has the numbers, the held-out half's
// too. It is calibrated for the builtin embedder; embedders that score
// higher throughout present more hits as relevant.
const DefaultStrongScore = 0.32

// Strong reports whether h, a relevant hit, is presented as relevant
// (its file is named by the query, or its similarity reaches
// DefaultStrongScore) rather than as possibly related.
func (h Hit) Strong() bool { return h.NameMatch || float64(h.Similarity) >= DefaultStrongScore }

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
