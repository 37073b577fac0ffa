package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"opsassist/storage/embed"
)

// scanEvidence is the oracle of evidence: does a chunk text of h's file
// have a specific concept of cs (re-reading every chunk).
func scanEvidence(x *Index, h Hit, cs []concept) bool {
	m := x.files[h.File.ID]
	if m == nil {
		return false
	}
	var spec []concept
	for _, c := range cs {
		if c.specific() {
			spec = append(spec, c)
		}
	}
	for _, t := range m.texts {
		if len(spec) > 0 && hasAny(t, spec) {
			return true
		}
	}
	return false
}

// TestEvidenceMatchesScan: evidence's postings lookups answer as
// re-reading every chunk would, over random files and queries, including words only
// in the file's name, words in both name and text, dates and Chinese,
// after files are replaced and deleted (dead and compacted slots), and
// in files longer than maxEvidenceChunks chunks, where the postings of a
// word's rarest token are walked (its first token's 32 chunks may all
// lack the word).
func TestEvidenceMatchesScan(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x, err := Open(t.TempDir(), Config{Embedder: e, CompactAfter: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	r := rand.New(rand.NewPCG(3, 4))
	vocab := append([]string{"2024-06-17", "June 17", "值班交接", "kubernetes", "helm", "Backup.yaml"}, benchWords...)
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	names := []string{"backup.yaml", "redis-backup.md", "值班交接-20240617.md", "helm values.txt", "kafka.conf"}
	for round := 0; round < 4; round++ {
		for i := 0; i < 12; i++ {
			texts := make([]string, 1+r.IntN(4))
			for j := range texts {
				texts[j] = words(1 + r.IntN(6))
			}
			f := makeFile(t, e, fmt.Sprintf("f%02d", i), names[r.IntN(len(names))], ScopeSystem, "", texts...)
			if r.IntN(5) == 0 {
				if err := x.Delete(ctx, f.ID); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := x.Put(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		// A file longer than the cap whose first token of "error log" is
		// in every chunk: only the last has the phrase ("log" is rare).
		long := make([]string, 2*maxEvidenceChunks)
		for j := range long {
			long[j] = fmt.Sprintf("error %d counted", j)
		}
		long[len(long)-1] = "see the error log of the proxy"
		if err := x.Put(ctx, makeFile(t, e, "long", "long.txt", ScopeSystem, "", long...)); err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 61; q++ {
			query := words(1 + r.IntN(3))
			if q == 60 {
				query = "error log"
			}
			x.mu.RLock()
			cs := x.weighConcepts(x.partitionsFor(Query{Scope: QuerySystem}), queryConcepts(query))
			for id, m := range x.files {
				h := Hit{File: m.info, chunk: -1}
				if got, want := x.evidence(&h, cs, nil), scanEvidence(x, h, cs); got != want {
					t.Errorf("file %s %q, query %q: evidence %v, scan %v", id, m.info.Name, query, got, want)
				}
			}
			x.mu.RUnlock()
		}
	}
}

// BenchmarkSearchBigFile measures a query over three files of n chunks
// (about 900 bytes each: 1,000 chunks ≈ 0.9 MiB, 20,000 ≈ 18 MiB) whose
// chunks lack the query's words, so the relevance check must look at
// the whole file: "search" is the whole query (its vector scan grows
// with the chunks, as every query's does), "relevance" the check of its
// hits alone, whose cost must not grow with the files' size, and "scan"
// the check as it was (re-tokenising every chunk), for comparison.
func BenchmarkSearchBigFile(b *testing.B) {
	const query = "kubernetes helm chart values"
	for _, n := range []int{1_000, 5_000, 20_000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			ctx := context.Background()
			e := embed.NewBuiltin(embed.DefaultDim)
			x, err := Open(b.TempDir(), Config{Embedder: e, CompactAfter: 1 << 40})
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			r := rand.New(rand.NewPCG(1, 2))
			for fi := 0; fi < 3; fi++ {
				texts := make([]string, n)
				for j := range texts {
					texts[j] = benchChunk(r)
				}
				if err := x.Put(ctx, makeFile(b, e, fmt.Sprintf("big%d", fi), fmt.Sprintf("big%d.log", fi), ScopeSystem, "", texts...)); err != nil {
					b.Fatal(err)
				}
			}
			hits, err := x.Search(ctx, Query{Text: query, Scope: QuerySystem, TopK: 5})
			if err != nil || len(hits) == 0 {
				b.Fatalf("hits %v, err %v", hits, err)
			}
			x.mu.RLock()
			cs := x.weighConcepts(x.partitionsFor(Query{Scope: QuerySystem}), queryConcepts(query))
			x.mu.RUnlock()
			b.Run("search", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := x.Search(ctx, Query{Text: query, Scope: QuerySystem, TopK: 5}); err != nil {
						b.Fatal(err)
					}
				}
			})
			for name, check := range map[string]func(Hit) bool{
				"relevance": func(h Hit) bool { h.chunk = -1; return x.evidence(&h, cs, nil) },
				"scan":      func(h Hit) bool { return scanEvidence(x, h, cs) },
			} {
				b.Run(name, func(b *testing.B) {
					x.mu.RLock()
					defer x.mu.RUnlock()
					for i := 0; i < b.N; i++ {
						for _, h := range hits {
							if check(h) {
								b.Fatal("a file shares a word it lacks")
							}
						}
					}
				})
			}
		})
	}
}
