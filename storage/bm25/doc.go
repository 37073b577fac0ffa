// Package bm25 implements an in-memory Okapi BM25 keyword index for hybrid
// retrieval.
//
// Text is split by Tokenize into lower-cased, NFKC-normalised Latin words and
// numbers (dotted file names such as config.yaml are kept whole as well as
// split into their parts) and CJK character bigrams, so the index works for
// both English and Chinese without a dictionary. Search results are ranked
// lists meant to be fused with vector search, for example by reciprocal rank
// fusion.
package bm25
