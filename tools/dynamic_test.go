package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// sourced is a tool of a given source.
type sourced struct {
	name, source, schema string
}

func (s sourced) Spec() Spec {
	p := s.schema
	if p == "" {
		p = `{"type":"object"}`
	}
	return Spec{Name: s.name, Source: s.source, Parameters: json.RawMessage(p), Risk: RiskReadOnly}
}

func (s sourced) Run(context.Context, *Call, json.RawMessage) (any, error) {
	return map[string]string{"from": s.source}, nil
}

func names(specs []Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func TestReplaceSourceReplacesSkipsAndReports(t *testing.T) {
	r := newRegistry(t, Config{}) // "echo", built in
	if err := r.ReplaceSource("a", []Tool{sourced{"a1", "a", ""}, sourced{"a2", "a", ""}}); err != nil {
		t.Fatal(err)
	}
	err := r.ReplaceSource("b", []Tool{
		sourced{"echo", "b", ""},                   // clashes with a built-in tool
		sourced{"a1", "b", ""},                     // clashes with source a
		sourced{"bad", "b", `{"type":"nonsense"}`}, // schema does not compile
		sourced{"b1", "b", ""},
	})
	if !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), `"a1"`) || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("err = %v", err)
	}
	if got := fmt.Sprint(r.Names()); got != "[echo a1 a2 b1]" {
		t.Fatalf("names = %s", got)
	}
	// a1 still runs a's tool.
	if o := r.Execute(context.Background(), nil, "a1", `{}`); !strings.Contains(o.ForModel, `"from":"a"`) {
		t.Fatalf("a1 = %s", o.ForModel)
	}
	// Replace a with a smaller set, then remove it.
	if err := r.ReplaceSource("a", []Tool{sourced{"a3", "a", ""}}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Names()); got != "[echo b1 a3]" {
		t.Fatalf("names = %s", got)
	}
	if err := r.ReplaceSource("a", nil); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Names()); got != "[echo b1]" {
		t.Fatalf("names = %s", got)
	}
	if err := r.ReplaceSource(SourceBuiltin, nil); err == nil {
		t.Fatal("replacing the built-in tools accepted")
	}
	if err := r.ReplaceSource("c", []Tool{sourced{"c1", "other", ""}}); err == nil {
		t.Fatal("a tool of another source accepted")
	}
}

func TestUnregister(t *testing.T) {
	r := newRegistry(t, Config{})
	r.ReplaceSource("a", []Tool{sourced{"a1", "a", ""}, sourced{"a2", "a", ""}})
	r.Unregister("a1", "nosuch")
	if got := fmt.Sprint(r.Names()); got != "[echo a2]" {
		t.Fatalf("names = %s", got)
	}
	if o := r.Execute(context.Background(), nil, "a1", `{}`); o.Result.Success {
		t.Fatal("an unregistered tool ran")
	}
}

func TestOfferedCapsAndWarnsOncePerChange(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	r := newRegistry(t, Config{Logger: zap.New(core)}) // echo
	var many []Tool
	for i := range 300 {
		many = append(many, sourced{fmt.Sprintf("z%03d", i), "srv", ""})
	}
	if err := r.ReplaceSource("srv", many); err != nil {
		t.Fatal(err)
	}
	r.ReplaceSource("alpha", []Tool{sourced{"alpha1", "alpha", ""}})
	specs, left := r.Offered()
	if len(specs) != DefaultMaxOffered || len(left) != 302-DefaultMaxOffered {
		t.Fatalf("offered %d, left %d", len(specs), len(left))
	}
	// Built-in first, then by source and name.
	if n := names(specs); n[0] != "echo" || n[1] != "alpha1" || n[2] != "z000" || n[99] != "z097" || left[0] != "z098" {
		t.Fatalf("order: %v … left %v…", n[:3], left[:1])
	}
	r.Offered()
	if logs.Len() != 1 || !strings.Contains(fmt.Sprint(logs.All()[0].ContextMap()["tools"]), "z299") {
		t.Fatalf("warnings: %d %v", logs.Len(), logs.All())
	}
	r.Unregister("z299")
	r.Offered()
	if logs.Len() != 2 {
		t.Fatalf("no warning after a change: %d", logs.Len())
	}
	// A tool left out still runs when named.
	if o := r.Execute(context.Background(), nil, "z200", `{}`); !o.Result.Success {
		t.Fatalf("left-out tool: %s", o.ForModel)
	}
	// Under the cap: everything, no warning.
	r.ReplaceSource("srv", nil)
	if specs, left := r.Offered(); len(specs) != 2 || left != nil || logs.Len() != 2 {
		t.Fatalf("offered %v left %v warnings %d", names(specs), left, logs.Len())
	}
}

// TestSetMaxOffered: a new cap applies to the next Offered, safely
// beside concurrent ones; 0 is the default.
func TestSetMaxOffered(t *testing.T) {
	r := newRegistry(t, Config{MaxOffered: 1}) // echo
	r.ReplaceSource("s", []Tool{sourced{"s1", "s", ""}, sourced{"s2", "s", ""}})
	if specs, left := r.Offered(); len(specs) != 1 || len(left) != 2 {
		t.Fatalf("offered %d, left %v", len(specs), left)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { r.Offered() })
	}
	r.SetMaxOffered(2)
	wg.Wait()
	if specs, left := r.Offered(); len(specs) != 2 || len(left) != 1 {
		t.Fatalf("after SetMaxOffered(2): offered %d, left %v", len(specs), left)
	}
	r.SetMaxOffered(0)
	if specs, left := r.Offered(); len(specs) != 3 || len(left) != 0 {
		t.Fatalf("after SetMaxOffered(0): offered %d, left %v", len(specs), left)
	}
}
