package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"opsassist/storage/index"
	"opsassist/tools"
)

func TestSearchOutputContract(t *testing.T) {
	ctx := context.Background()
	x := newTestIndex(t)
	long := strings.Repeat("数据库配置说明：编辑 config.yaml 设置端口。", 20)
	x.put(t, index.File{ID: "r", Name: "README.md", Path: "/p/README.md", Scope: index.ScopeSystem},
		[]string{long}, func(int) string { return "第1章" })
	x.put(t, index.File{ID: "u", Name: "config.yaml", Path: "/up/u/config.yaml", Scope: index.ScopeUploads, ConversationID: "c1"},
		[]string{"database:\n  port: 5432"}, func(int) string { return "line 1-2" })
	tool := New(Config{Index: x.Index})
	run := func(call *tools.Call, args string) Output {
		t.Helper()
		out, err := tool.Run(ctx, call, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return out.(Output)
	}
	out := run(&tools.Call{SessionID: "c1"}, `{"query": "config.yaml", "top_k": 1}`)
	if out.Total != 1 || out.Results[0].Filepath != "/up/u/config.yaml" || out.Results[0].Position != "line 1-2" {
		t.Fatalf("%+v", out)
	}
	out = run(&tools.Call{SessionID: "c1"}, `{"query": "数据库配置说明", "scope": "system"}`)
	// The 200-rune excerpt is cut at a word boundary and marked "…"
	// (Snippet).
	if c := out.Results[0].Chunk; out.Total != 1 || out.Results[0].Filename != "README.md" || utf8.RuneCountInString(c) > 202 || !strings.HasSuffix(c, " …") {
		t.Fatalf("%+v", out)
	}
	if s := out.Results[0].Similarity; s <= 0 || s > 1 {
		t.Fatalf("similarity %v", s)
	}
	// Another conversation does not see c1's upload.
	if out = run(&tools.Call{SessionID: "c2"}, `{"query": "config.yaml", "scope": "uploads"}`); out.Total != 0 {
		t.Fatalf("%+v", out)
	}
	b, _ := json.Marshal(out)
	if string(b) != `{"total":0,"results":[]}` {
		t.Fatalf("empty output %s", b)
	}
	if _, err := New(Config{}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x"}`)); !errors.Is(err, ErrIndexUnavailable) {
		t.Fatal(err)
	}
}

// loadingIndex is an index that has not finished loading.
type loadingIndex struct{}

func (loadingIndex) Search(context.Context, index.Query) ([]index.Hit, error) {
	return nil, index.ErrLoading
}

// TestSearchWhileIndexLoads: the tool answers, without an error, that the
// index is loading, in Chinese and English.
func TestSearchWhileIndexLoads(t *testing.T) {
	out, err := New(Config{Index: loadingIndex{}}).Run(context.Background(), &tools.Call{SessionID: "c1"}, json.RawMessage(`{"query":"数据库"}`))
	if err != nil {
		t.Fatal(err)
	}
	o := out.(Output)
	if o.Status != StatusLoading || o.Total != 0 || !strings.Contains(o.Message, "正在加载") || !strings.Contains(o.Message, "still loading") {
		t.Fatalf("%+v", o)
	}
}

// fixedIndex returns the same hits for every query.
type fixedIndex []index.Hit

func (f fixedIndex) Search(context.Context, index.Query) ([]index.Hit, error) { return f, nil }

// TestSearchRelevanceFloor: hits under MinScore are dropped, a file the
// query names is kept, and with nothing left the answer says nothing
// relevant was found, with a hint, in Chinese and English.
func TestSearchRelevanceFloor(t *testing.T) {
	ctx := context.Background()
	hits := fixedIndex{
		{File: index.FileInfo{Name: "a.md"}, Similarity: 0.30, Chunk: "a", KeywordMatch: true},
		{File: index.FileInfo{Name: "b.md"}, Similarity: 0.05, Chunk: "b"},
		{File: index.FileInfo{Name: "c.yaml"}, Similarity: 0.01, NameMatch: true, Chunk: "c"},
	}
	out, err := New(Config{Index: hits, MinScore: 0.07}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	o := out.(Output)
	if o.Total != 2 || o.Results[0].Filename != "a.md" || o.Results[1].Filename != "c.yaml" || o.Status != "" {
		t.Fatalf("%+v", o)
	}
	out, err = New(Config{Index: hits[1:2], MinScore: 0.07}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	o = out.(Output)
	if o.Total != 0 || len(o.Results) != 0 || o.Status != StatusNoRelevant || !strings.Contains(o.Message, "没有找到足够相关") || !strings.Contains(o.Message, "Nothing relevant") {
		t.Fatalf("%+v", o)
	}
	// No floor: every hit is kept.
	out, _ = New(Config{Index: hits}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x"}`))
	if o := out.(Output); o.Total != 3 {
		t.Fatalf("%+v", o)
	}
}

// topKIndex returns the first TopK of its hits, as the index does, and
// records the TopK asked for.
type topKIndex struct {
	hits  []index.Hit
	asked *int
}

func (f topKIndex) Search(_ context.Context, q index.Query) ([]index.Hit, error) {
	*f.asked = q.TopK
	return f.hits[:min(q.TopK, len(f.hits))], nil
}

// TestRelevanceBeforeTheCut: when the best-ranked files share no content
// word with the query, a lower-ranked file that does is shown (relevance
// is judged before the top_k cut), at most top_k are shown, and the
// index is asked for at most top_k + relevanceLookahead files.
func TestRelevanceBeforeTheCut(t *testing.T) {
	ctx := context.Background()
	var hits []index.Hit
	for i := 0; i < 40; i++ {
		hits = append(hits, index.Hit{File: index.FileInfo{Name: fmt.Sprintf("f%02d.md", i)}, Similarity: 0.3, Chunk: "x", KeywordMatch: i == 4 || i >= 6})
	}
	var asked int
	out, err := New(Config{Index: topKIndex{hits, &asked}, MinScore: 0.07}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x","top_k":3}`))
	if err != nil {
		t.Fatal(err)
	}
	o := out.(Output)
	if o.Total != 3 || o.Results[0].Filename != "f04.md" || o.Results[1].Filename != "f06.md" || o.Results[2].Filename != "f07.md" || o.Status != "" {
		t.Fatalf("%+v", o)
	}
	if asked != 3+relevanceLookahead {
		t.Fatalf("asked the index for %d files", asked)
	}
	// Past the lookahead nothing is looked for: the answer says nothing
	// relevant was found.
	far := append([]index.Hit(nil), hits...)
	for i := range far[:3+relevanceLookahead] {
		far[i].KeywordMatch = false
	}
	out, _ = New(Config{Index: topKIndex{far, &asked}, MinScore: 0.07}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x","top_k":3}`))
	if o := out.(Output); o.Total != 0 || o.Status != StatusNoRelevant {
		t.Fatalf("%+v", o)
	}
	// Without a floor the index is asked for top_k only.
	New(Config{Index: topKIndex{hits, &asked}}).Run(ctx, &tools.Call{}, json.RawMessage(`{"query":"x","top_k":3}`))
	if asked != 3 {
		t.Fatalf("asked the index for %d files without a floor", asked)
	}
}
