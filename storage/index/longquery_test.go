package index

import (
	"context"
	"strings"
	"testing"
	"time"

	"opsassist/storage/embed"
)

// longQuery is the 64 KiB question that stalled the index for seconds:
// its concepts were bigrams × known words, every one under the lock.
var longQuery = strings.Repeat("如何配置", 5400)

// TestStraddlersWorkIsLinear: finding the bigrams that straddle a known
// word looks at each byte of the query at most twice, however many
// known words the query holds (it compared every bigram with every
// known word: 2.5 s for longQuery).
func TestStraddlersWorkIsLinear(t *testing.T) {
	for _, q := range []string{"如何配置数据库？", longQuery, strings.Repeat("数据库端口日志", 3000)} {
		work := 0
		straddlers(q, embed.Concepts(q), &work)
		if work > 2*len(q) {
			t.Errorf("%d-byte query: %d bytes looked at, want at most %d", len(q), work, 2*len(q))
		}
	}
}

// TestSearchReadsAtMostMaxQueryBytes: a query is cut to MaxQueryBytes, at
// a rune boundary, before any stage reads it.
func TestSearchReadsAtMostMaxQueryBytes(t *testing.T) {
	e := embed.NewBuiltin(64)
	x := openTest(t, t.TempDir(), Config{Embedder: e})
	pq, err := x.prepare(context.Background(), Query{Text: longQuery})
	if err != nil {
		t.Fatal(err)
	}
	if len(pq.Text) > MaxQueryBytes || len(pq.Text) < MaxQueryBytes-3 || !strings.HasPrefix(longQuery, pq.Text) {
		t.Fatalf("prepared query has %d bytes, want the first %d of the query, cut at a rune", len(pq.Text), MaxQueryBytes)
	}
}

// TestQueryReadOutsideTheLock: a query's vector and concepts are made
// without the index's lock, so a long query holds up neither a Put nor
// another search. Here the lock is held for writing (as by a Put) while
// the query is read: reading it must not wait for it.
func TestQueryReadOutsideTheLock(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(64)
	x := openTest(t, t.TempDir(), Config{Embedder: e})
	if err := x.Put(ctx, makeFile(t, e, "a", "a.md", ScopeSystem, "", "数据库的端口是 5432。")); err != nil {
		t.Fatal(err)
	}
	x.mu.Lock()
	done := make(chan preparedQuery, 1)
	go func() {
		pq, err := x.prepare(ctx, Query{Text: longQuery})
		if err != nil {
			t.Error(err)
		}
		done <- pq
	}()
	var pq preparedQuery
	select {
	case pq = <-done:
	case <-time.After(time.Minute): // a hang guard, not a measurement
		x.mu.Unlock()
		t.Fatal("reading the query waited for the index's lock")
	}
	x.mu.Unlock()
	if len(pq.concepts) == 0 {
		t.Fatal("the prepared query has no concepts")
	}
	// The search itself still finds what the query's first bytes ask.
	hits, err := x.Search(ctx, Query{Text: "数据库端口" + longQuery})
	if err != nil || len(hits) == 0 || hits[0].File.Name != "a.md" {
		t.Fatalf("Search = %v, %v", hits, err)
	}
}
