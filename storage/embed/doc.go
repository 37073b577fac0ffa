// Package embed turns text into dense vectors for semantic search.
//
// The default embedder, Builtin, is offline, pure Go and deterministic: it
// uses signed feature hashing of normalised tokens (Latin words and word
// bigrams, character 3-grams, CJK character unigrams and bigrams, file-name
// and identifier tokens) with sublinear term frequency and L2
// normalisation. Queries can additionally be expanded with a small built-in
// bilingual (Chinese/English) ops glossary, so that "数据库端口" lands near
// a document saying "database port: 5432".
//
// Vectors from different embedders (or the same embedder with a different
// dimension) are not comparable; Name identifies the embedder and
// dimension so an index can record which one built it.
package embed
