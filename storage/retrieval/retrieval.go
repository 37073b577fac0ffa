// Package retrieval measures search quality: it indexes a corpus of files
// into a temporary index and scores queries whose answer file is known,
// with recall@1, recall@3 and MRR over the ranked files.
package retrieval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"opsassist/storage/embed"
	"opsassist/storage/index"
	"opsassist/storage/indexer"
)

// Case is one query and the name of the file that answers it.
type Case struct {
	Query    string `json:"query"`
	WantFile string `json:"want_file"`
}

// Load reads JSON lines of cases; blank lines are skipped.
func Load(r io.Reader) ([]Case, error) {
	var cases []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c Case
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if c.Query == "" || c.WantFile == "" {
			return nil, fmt.Errorf("line %d: query and want_file are required", n)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// Build indexes every file under corpus, as system documents, into a new
// index in dir. The caller closes the index.
func Build(ctx context.Context, corpus, dir string, emb embed.Embedder) (*index.Index, error) {
	idx, err := index.Open(dir, index.Config{Embedder: emb})
	if err != nil {
		return nil, err
	}
	ixr, err := indexer.New(indexer.Config{Index: idx, Embedder: emb})
	if err != nil {
		idx.Close()
		return nil, err
	}
	rep, err := ixr.SyncSystem(ctx, []string{corpus})
	if err == nil && rep.Added == 0 {
		err = fmt.Errorf("retrieval: no file indexed under %s", corpus)
	}
	if err == nil && rep.Failed > 0 {
		err = fmt.Errorf("retrieval: %d files failed to index", rep.Failed)
	}
	if err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// Miss is a case whose file was not ranked first.
type Miss struct {
	Case
	// Rank is the 1-based rank of the wanted file, 0 if not in the top 10.
	Rank int
	// Got are the files ranked first.
	Got []string
}

// Report is the outcome of an evaluation.
type Report struct {
	N, At1, At3 int
	MRR         float64
	Misses      []Miss
}

// depth is how many files are ranked per query.
const depth = 10

// Evaluate runs each case against idx in the given index mode. Hits
// under the relevance floor minScore (index.Hit.Relevant, as
// semantic_search drops them) are left out of the ranking; 0 keeps all.
func Evaluate(ctx context.Context, idx *index.Index, cases []Case, mode string, minScore float64) (Report, error) {
	var r Report
	for _, c := range cases {
		hits, err := idx.Search(ctx, index.Query{Text: c.Query, Scope: index.QuerySystem, TopK: depth, Mode: mode})
		if err != nil {
			return r, err
		}
		r.N++
		hits = slices.DeleteFunc(hits, func(h index.Hit) bool { return !h.Relevant(minScore) })
		rank := 0
		var got []string
		for i, h := range hits {
			if len(got) < 3 {
				got = append(got, h.File.Name)
			}
			if rank == 0 && h.File.Name == filepath.Base(c.WantFile) {
				rank = i + 1
			}
		}
		if rank == 1 {
			r.At1++
		}
		if rank >= 1 && rank <= 3 {
			r.At3++
		}
		if rank > 0 {
			r.MRR += 1 / float64(rank)
		}
		if rank != 1 {
			r.Misses = append(r.Misses, Miss{Case: c, Rank: rank, Got: got})
		}
	}
	if r.N > 0 {
		r.MRR /= float64(r.N)
	}
	return r, nil
}

// Recall1 is the share of cases whose file ranked first.
func (r Report) Recall1() float64 { return ratio(r.At1, r.N) }

// Recall3 is the share of cases whose file ranked in the top three.
func (r Report) Recall3() float64 { return ratio(r.At3, r.N) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Summary is the report's closing lines; the last is
// "recall@3: 0.XXX (K/N)".
func (r Report) Summary() string {
	return fmt.Sprintf("recall@1: %.3f (%d/%d)\nMRR: %.3f\nrecall@3: %.3f (%d/%d)", r.Recall1(), r.At1, r.N, r.MRR, r.Recall3(), r.At3, r.N)
}

// String renders a miss as one line.
func (m Miss) String() string {
	rank := "not in top 10"
	if m.Rank > 0 {
		rank = fmt.Sprintf("rank %d", m.Rank)
	}
	return fmt.Sprintf("miss: %q want %s (%s), got %s", m.Query, m.WantFile, rank, strings.Join(m.Got, ", "))
}

// LoadFile reads cases from a file; an empty one is an error.
func LoadFile(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", path)
	}
	return cases, nil
}
