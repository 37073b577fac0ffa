package index

import (
	"context"
	"reflect"
	"testing"

	"opsassist/storage/embed"
)

func TestFirstPerFileKeepsBestPlace(t *testing.T) {
	r := []rankedFile{{file: "a", chunk: "a#2"}, {file: "b", chunk: "b#0"}, {file: "a", chunk: "a#0"}, {file: "c", chunk: "c#1"}, {file: "b", chunk: "b#1"}}
	got := firstPerFile(r)
	want := []rankedFile{{file: "a", chunk: "a#2"}, {file: "b", chunk: "b#0"}, {file: "c", chunk: "c#1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestFusionAddsRanksPerFile(t *testing.T) {
	f := fusion{}
	f.addVector([]rankedFile{{file: "a", chunk: "a#1", sim: 0.9}, {file: "b", chunk: "b#0", sim: 0.5}})
	f.addKeyword([]rankedFile{{file: "b", chunk: "b#3"}, {file: "c", chunk: "c#2"}})
	// b: second by vector, first by keyword; its chunk stays the vector's.
	if c := f["b"]; c.chunk != "b#0" || !c.hasSim || c.sim != 0.5 || c.score != rrf(1, 1)+rrf(0, keywordWeight) {
		t.Errorf("b: %+v", *c)
	}
	if c := f["a"]; c.chunk != "a#1" || c.score != rrf(0, 1) {
		t.Errorf("a: %+v", *c)
	}
	// c: keyword only, so its chunk is the keyword's and it has no similarity yet.
	if c := f["c"]; c.chunk != "c#2" || c.hasSim || c.score != rrf(1, keywordWeight) {
		t.Errorf("c: %+v", *c)
	}
	if f["b"].score <= f["a"].score {
		t.Error("a file both rankings found must outrank one found by one alone at the top")
	}
}

func TestOrderHitsTieBreaks(t *testing.T) {
	hits := []Hit{
		{File: FileInfo{Path: "/z"}, Score: 0.1, Similarity: 0.2},
		{File: FileInfo{Path: "/b"}, Score: 0.1, Similarity: 0.3},
		{File: FileInfo{Path: "/a"}, Score: 0.1, Similarity: 0.2},
		{File: FileInfo{Path: "/c"}, Score: 0.5},
	}
	orderHits(hits)
	var got []string
	for _, h := range hits {
		got = append(got, h.File.Path)
	}
	if want := []string{"/c", "/b", "/a", "/z"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPartitionsForScope(t *testing.T) {
	ctx := context.Background()
	x := openTest(t, t.TempDir(), Config{})
	e := embed.NewBuiltin(testDim)
	for _, f := range []File{
		makeFile(t, e, "s", "s.md", ScopeSystem, "", "system"),
		makeFile(t, e, "u", "u.md", ScopeUploads, "convA", "upload"),
	} {
		if err := x.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	sys, up := x.parts[ScopeSystem], x.parts[partName(ScopeUploads, "convA")]
	for _, tc := range []struct {
		q    Query
		want []*partition
	}{
		{Query{Scope: QueryAll, ConversationID: "convA"}, []*partition{sys, up}},
		{Query{Scope: QueryAll}, []*partition{sys}},
		{Query{Scope: QuerySystem, ConversationID: "convA"}, []*partition{sys}},
		{Query{Scope: QueryUploads, ConversationID: "convA"}, []*partition{up}},
		{Query{Scope: QueryUploads}, nil},
		{Query{Scope: QueryUploads, ConversationID: "convB"}, nil},
	} {
		if got := x.partitionsFor(tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: got %d partitions, want %d", tc.q, len(got), len(tc.want))
		}
	}
	if q := (Query{}).withDefaults(); q.TopK != 3 || q.Scope != QueryAll {
		t.Errorf("defaults: %+v", q)
	}
}

func TestRRF(t *testing.T) {
	if got, want := rrf(0, 1), 1.0/11; got != want {
		t.Errorf("first place: %v, want %v", got, want)
	}
	if got, want := rrf(2, keywordWeight), 1.25/13; got != want {
		t.Errorf("third keyword place: %v, want %v", got, want)
	}
}
