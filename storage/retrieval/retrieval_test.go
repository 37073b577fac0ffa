package retrieval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/storage/embed"
	"opsassist/storage/index"
)

// minRecall3 is the storage issue's target for the builtin embedder's
// hybrid recall@3 on the shipped eval set (this build: 0.961, 123/128).
const minRecall3 = 0.95

// minHeldoutRecall3 is the held-out half's hybrid recall@3 under the
// default relevance floor when the floor was chosen (54/64).
const minHeldoutRecall3 = 0.84

// TestSplitIsFixed: the parts are the even and odd lines, disjoint and
// complete.
func TestSplitIsFixed(t *testing.T) {
	cases := []Case{{"a", "1"}, {"b", "2"}, {"c", "3"}}
	tr, _ := Split(cases, PartTrain)
	ho, _ := Split(cases, PartHeldout)
	all, _ := Split(cases, "")
	if len(tr) != 2 || tr[0].Query != "a" || tr[1].Query != "c" || len(ho) != 1 || ho[0].Query != "b" || len(all) != 3 {
		t.Fatalf("train %v heldout %v all %v", tr, ho, all)
	}
	if _, err := Split(cases, "test"); err == nil {
		t.Fatal("unknown part accepted")
	}
}

func TestRetrievalEval(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join("..", "..", "testdata", "evals")
	cases, err := LoadFile(filepath.Join(root, "retrieval.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("%d cases, want at least 100", len(cases))
	}
	idx, err := Build(ctx, filepath.Join(root, "corpus"), t.TempDir(), embed.NewBuiltin(0))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n := len(idx.Files(index.ScopeSystem, "")); n < 30 {
		t.Fatalf("corpus has %d files, want at least 30", n)
	}
	recall := map[string]float64{}
	for name, mode := range map[string]string{"hybrid": index.ModeHybrid, "vector": index.ModeVector, "keyword": index.ModeKeyword} {
		r, err := Evaluate(ctx, idx, cases, mode, 0)
		if err != nil {
			t.Fatal(err)
		}
		recall[name] = r.Recall3()
		t.Logf("%s:\n%s", name, r.Summary())
	}
	if recall["hybrid"] < minRecall3 {
		t.Errorf("hybrid recall@3 %.3f < %.3f", recall["hybrid"], minRecall3)
	}
	// The default relevance floor is what the fixed rule chooses on the
	// train half (ChooseFloor); the held-out half is only measured, and
	// must not fall below what it measured when the floor was chosen
	// (0.844, 54/64: the floor trades recall for not presenting
	// unrelated passages as found).
	train, _ := Split(cases, PartTrain)
	heldout, _ := Split(cases, PartHeldout)
	floor, kept, n, err := ChooseFloor(ctx, idx, train, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if floor != index.DefaultMinScore {
		t.Errorf("the rule chooses %.2f on train (keeping %d/%d), index.DefaultMinScore is %.2f", floor, kept, n, index.DefaultMinScore)
	}
	// The level at which hits are presented as relevant rather than as
	// possibly related is what its rule chooses on the train half.
	strong, right, top, err := ChooseStrong(ctx, idx, train, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if strong != index.DefaultStrongScore {
		t.Errorf("the strong rule chooses %.2f on train (%d/%d right), index.DefaultStrongScore is %.2f", strong, right, top, index.DefaultStrongScore)
	}
	r, err := Evaluate(ctx, idx, heldout, index.ModeHybrid, index.DefaultMinScore)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out, hybrid, min score %v:\n%s", index.DefaultMinScore, r.Summary())
	if r.Recall3() < minHeldoutRecall3 {
		t.Errorf("held-out hybrid recall@3 with the default floor %.3f < %.3f", r.Recall3(), minHeldoutRecall3)
	}
	if recall["hybrid"] < recall["vector"] || recall["hybrid"] < recall["keyword"] {
		t.Errorf("hybrid %.3f must not lose to vector %.3f or keyword %.3f", recall["hybrid"], recall["vector"], recall["keyword"])
	}
}

func TestLoadRejectsBadLines(t *testing.T) {
	for _, in := range []string{`{"query": "x"}`, `{"query": "x", "want_file": "a", "extra": 1}`, `not json`} {
		if _, err := Load(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
	cases, err := Load(strings.NewReader("\n{\"query\": \"q\", \"want_file\": \"a.md\"}\n\n"))
	if err != nil || len(cases) != 1 {
		t.Fatalf("%v %v", cases, err)
	}
}
