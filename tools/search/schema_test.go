package search

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"opsassist/storage/index"
	"opsassist/tools"
)

// queryIndex records the query text each search is asked.
type queryIndex struct{ got *[]string }

func (q queryIndex) Search(_ context.Context, x index.Query) ([]index.Hit, error) {
	*q.got = append(*q.got, x.Text)
	return nil, nil
}

// TestQuerySchemaTellsTheTruth: the query's maxLength is the index's
// one bound (index.MaxQueryBytes, counted in characters: no query the
// index reads whole is refused) and its description says how much is
// read; through the registry a query of that many characters runs, a
// longer one is refused before the index is asked (it had no
// maxLength: 64 KiB queries were accepted and silently cut to 1 KiB);
// CutQuery is what the index reads, and it always fits the schema.
func TestQuerySchemaTellsTheTruth(t *testing.T) {
	var spec struct {
		Properties struct {
			Query struct {
				MaxLength   int    `json:"maxLength"`
				Description string `json:"description"`
			} `json:"query"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(New(Config{}).Spec().Parameters, &spec); err != nil {
		t.Fatal(err)
	}
	if q := spec.Properties.Query; q.MaxLength != index.MaxQueryBytes || !strings.Contains(q.Description, "first 1024 bytes") {
		t.Fatalf("query schema %+v", q)
	}
	var got []string
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(New(Config{Index: queryIndex{&got}})); err != nil {
		t.Fatal(err)
	}
	call := func(q string) tools.Outcome {
		b, _ := json.Marshal(map[string]any{"query": q})
		return reg.Execute(t.Context(), &tools.Call{SessionID: "s"}, "semantic_search", string(b))
	}
	whole := strings.Repeat("a", MaxQueryChars)
	if o := call(whole); !o.Result.Success || len(got) != 1 || got[0] != whole {
		t.Fatalf("a query of %d characters: %+v, index asked %d", MaxQueryChars, o.Result, len(got))
	}
	if o := call(whole + "a"); o.Result.Success || !strings.Contains(o.Result.Error, "invalid arguments") || len(got) != 1 {
		t.Fatalf("a query over maxLength: %+v, index asked %d", o.Result, len(got))
	}
	long := strings.Repeat("数据库", 2000)
	cut := CutQuery(long)
	if len(cut) > index.MaxQueryBytes || !utf8.ValidString(cut) || !strings.HasPrefix(long, cut) || utf8.RuneCountInString(cut) > MaxQueryChars {
		t.Fatalf("CutQuery: %d bytes, valid %v", len(cut), utf8.ValidString(cut))
	}
	if o := call(cut); !o.Result.Success {
		t.Fatalf("a cut query refused: %+v", o.Result)
	}
}
