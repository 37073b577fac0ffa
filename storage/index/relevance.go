package index

// DefaultMinScore is the default relevance floor (config search.min_score):
// the least cosine similarity a passage needs to be shown as relevant.
//
// It was chosen once, on the retrieval eval (testdata/evals) with the
// builtin embedder, as the highest floor that keeps hybrid recall@3 at the
// eval's bar of 0.95: at 0.07 recall@3 goes from 123/128 to 122/128 and
// recall@1 from 92 to 91; at 0.08 recall@3 would fall to 121 (0.945).
// The builtin embedder's similarities are low (correct files score
// 0.07–0.47, half of them under 0.2), so the floor only drops passages
// that share next to nothing with the query. Embedders such as OpenAI's
// score higher throughout and warrant a higher floor.
const DefaultMinScore = 0.07

// Relevant reports whether h is worth showing under the relevance floor
// minScore. The floor applies to the cosine similarity of the query and
// the hit's chunk, not to the fused score: reciprocal-rank fusion scores
// depend only on ranks (every query's best file scores about the same),
// so they say nothing about how well a file answers. A file the query
// names (NameMatch) is relevant whatever its similarity, so "下载
// config.yaml" still finds config.yaml.
func (h Hit) Relevant(minScore float64) bool {
	return h.NameMatch || float64(h.Similarity) >= minScore
}
