package bm25

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func newCorpus(t testing.TB, docs map[string]string) *Index {
	t.Helper()
	x := New()
	for id, text := range docs {
		x.Add(id, text)
	}
	return x
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	x := newCorpus(t, map[string]string{
		"db":     "数据库的端口是5432，修改后需要重启服务。",
		"dbonly": "数据库备份每天凌晨执行，数据库日志保留七天。",
		"port":   "防火墙开放了端口8080和端口443。",
		"net":    "网络配置说明，与存储无关。",
		"cfg":    "The service reads its settings from config.yaml at startup.",
		"cfg2":   "Configuration is loaded from settings.json; yaml is not supported.",
		"log":    "Logs are written to the service log directory.",
		"rare":   "the the the the kubelet the the",
		"common": "the service the service the service",
	})
	tests := []struct {
		query string
		first string
	}{
		{"数据库端口", "db"},
		{"数据库 端口", "db"},
		{"config.yaml", "cfg"},
		{"CONFIG.YAML", "cfg"},
		{"the kubelet", "rare"},
		{"service kubelet", "rare"},
		{"防火墙", "port"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := x.Search(tt.query, 10, nil)
			if len(hits) == 0 || hits[0].ID != tt.first {
				t.Fatalf("Search(%q) = %v, want %q first", tt.query, hits, tt.first)
			}
			for i, h := range hits {
				if h.Score <= 0 {
					t.Errorf("hit %d has score %v", i, h.Score)
				}
				if i > 0 && (h.Score > hits[i-1].Score ||
					h.Score == hits[i-1].Score && h.ID < hits[i-1].ID) {
					t.Errorf("hits out of order: %v", hits)
				}
			}
		})
	}
}

func TestSearchNoMatch(t *testing.T) {
	x := newCorpus(t, map[string]string{"a": "alpha beta", "b": "gamma"})
	for _, q := range []string{"", "  ", "。，", "delta"} {
		if hits := x.Search(q, 10, nil); hits != nil {
			t.Errorf("Search(%q) = %v, want nil", q, hits)
		}
	}
	if hits := New().Search("alpha", 10, nil); hits != nil {
		t.Errorf("empty index: %v, want nil", hits)
	}
}

func TestSearchTiesByID(t *testing.T) {
	x := newCorpus(t, map[string]string{"c": "same text", "a": "same text", "b": "same text"})
	got := strings.Join(ids(x.Search("same", 10, nil)), ",")
	if got != "a,b,c" {
		t.Errorf("tie order = %s, want a,b,c", got)
	}
}

func TestSearchBounds(t *testing.T) {
	x := newCorpus(t, map[string]string{"a": "x", "b": "x y", "c": "x y z"})
	for _, tt := range []struct{ n, want int }{{-1, 0}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {100, 3}} {
		if got := len(x.Search("x", tt.n, nil)); got != tt.want {
			t.Errorf("n=%d: got %d hits, want %d", tt.n, got, tt.want)
		}
	}
}

func TestSearchFilter(t *testing.T) {
	x := newCorpus(t, map[string]string{"a": "x x x", "b": "x", "c": "x y"})
	got := x.Search("x", 10, func(id string) bool { return id != "a" })
	if len(got) != 2 || got[0].ID == "a" || got[1].ID == "a" {
		t.Errorf("filter kept a: %v", got)
	}
	if got := x.Search("x", 10, func(string) bool { return false }); got != nil {
		t.Errorf("reject-all filter: %v, want nil", got)
	}
	// The filter may call back into the index.
	if got := x.Search("x", 10, func(string) bool { return x.Len() == 3 }); len(got) != 3 {
		t.Errorf("reentrant filter: %v", got)
	}
}

func TestTopN(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		all := make([]Hit, rng.IntN(50))
		for i := range all {
			all[i] = Hit{ID: fmt.Sprintf("d%03d", i), Score: float64(rng.IntN(5))}
		}
		want := topN(slices.Clone(all), len(all))
		n := 1 + rng.IntN(60)
		got := topN(slices.Clone(all), n)
		if len(want) > n {
			want = want[:n]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d n=%d: got %v, want %v", trial, n, got, want)
		}
	}
}

func TestAddReplace(t *testing.T) {
	x := New()
	x.Add("a", "old words here")
	x.Add("b", "something else")
	x.Add("a", "new content")
	if x.Len() != 2 {
		t.Fatalf("Len = %d, want 2", x.Len())
	}
	if hits := x.Search("old", 10, nil); hits != nil {
		t.Errorf("old text still found: %v", hits)
	}
	if hits := x.Search("new", 10, nil); len(hits) != 1 || hits[0].ID != "a" {
		t.Errorf("new text: %v", hits)
	}
	if x.totalLen != 5 { // new content + beta shared shar (the stem)
		t.Errorf("totalLen = %d, want 5", x.totalLen)
	}
}

func TestDelete(t *testing.T) {
	x := newCorpus(t, map[string]string{"a": "alpha shared", "b": "beta shared"})
	x.Delete("a")
	x.Delete("missing")
	if x.Len() != 1 {
		t.Fatalf("Len = %d, want 1", x.Len())
	}
	if hits := x.Search("alpha", 10, nil); hits != nil {
		t.Errorf("deleted doc found: %v", hits)
	}
	if hits := x.Search("shared", 10, nil); len(hits) != 1 || hits[0].ID != "b" {
		t.Errorf("shared: %v", hits)
	}
	x.Add("c", "gamma")
	x.Delete("b")
	x.Delete("c")
	if x.Len() != 0 || len(x.postings) != 0 || x.ids != nil || x.totalLen != 0 {
		t.Errorf("empty index keeps state: len=%d postings=%d ids=%d total=%d",
			x.Len(), len(x.postings), len(x.ids), x.totalLen)
	}
}

func TestDeleteChurnDoesNotGrow(t *testing.T) {
	x := New()
	x.Add("keep", "anchor")
	for i := range 1000 {
		id := fmt.Sprintf("tmp%d", i)
		x.Add(id, fmt.Sprintf("unique%d common", i))
		x.Delete(id)
	}
	if len(x.ids) > 2 || len(x.postings) > 3 {
		t.Errorf("after churn: %d slots, %d postings; want at most 2 and 3", len(x.ids), len(x.postings))
	}
}

func TestConcurrent(t *testing.T) {
	x := New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := fmt.Sprintf("g%d-%d", g, i%20)
				switch i % 4 {
				case 0, 1:
					x.Add(id, fmt.Sprintf("worker %d item %d 数据库端口", g, i))
				case 2:
					x.Search("worker 数据库", 5, func(id string) bool { return id != "" })
					x.Len()
				case 3:
					x.Delete(id)
				}
			}
		})
	}
	wg.Wait()
	if n := x.Len(); n < 0 || n > 8*20 {
		t.Errorf("Len = %d", n)
	}
}

func TestManyIDs(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping 200k-document test in short mode")
	}
	const n = 200_000
	start := time.Now()
	x := New()
	for i := range n {
		x.Add(fmt.Sprintf("id%d", i), fmt.Sprintf("item%d tiny", i))
	}
	if x.Len() != n {
		t.Fatalf("Len = %d, want %d", x.Len(), n)
	}
	for _, i := range []int{0, 1, 99_999, n - 1} {
		hits := x.Search(fmt.Sprintf("item%d", i), 3, nil)
		if want := fmt.Sprintf("id%d", i); len(hits) != 1 || hits[0].ID != want {
			t.Errorf("lookup %d: %v, want [%s]", i, hits, want)
		}
	}
	if hits := x.Search("tiny", 5, nil); len(hits) != 5 {
		t.Errorf("common term: %d hits, want 5", len(hits))
	}
	t.Logf("200k docs in %v", time.Since(start))
}

func BenchmarkSearch10k(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	// Zipf-like draw so that some terms are common and most are rare.
	word := func() string { return vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64()*rng.Float64())] }
	x := New()
	for i := range 10_000 {
		var sb strings.Builder
		for range 50 {
			sb.WriteString(word())
			sb.WriteByte(' ')
		}
		x.Add(fmt.Sprintf("doc%d", i), sb.String())
	}
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = word() + " " + word() + " " + word()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		x.Search(queries[i%len(queries)], 10, nil)
	}
}

// TestUniqueTermsAreCheap indexes 100,000 terms that each occur in one
// document (identifiers, hashes, random words) and bounds the heap they
// take: a term string, a map entry and a posting list each cost about
// 100 bytes; a hashed term with its one posting inline costs about 25.
func TestUniqueTermsAreCheap(t *testing.T) {
	const docs, per = 1000, 100
	texts := make([]string, docs)
	for d := range docs {
		var b strings.Builder
		for w := range per {
			fmt.Fprintf(&b, "q%dz%d ", d, w)
		}
		texts[d] = b.String()
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	x := New()
	for d, text := range texts {
		x.Add(fmt.Sprintf("doc-%d", d), text)
	}
	x.Trim()
	runtime.GC()
	runtime.ReadMemStats(&after)
	perTerm := (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / (docs * per)
	if perTerm > 48 {
		t.Errorf("%.0f bytes of heap per unique term, want at most 48", perTerm)
	}
	if hits := x.Search("q417z33", 3, nil); len(hits) != 1 || hits[0].ID != "doc-417" {
		t.Errorf("search for a unique term: %+v", hits)
	}
	runtime.KeepAlive(x)
}
