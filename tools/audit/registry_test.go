package audit

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"opsassist/tools"
)

// countTool counts its runs.
type countTool struct{ n int }

func (*countTool) Spec() tools.Spec {
	return tools.Spec{Name: "count", Parameters: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskReadOnly}
}

func (c *countTool) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	c.n++
	return c.n, nil
}

// TestRegistryPausesWhenLogRemoved: with the audit directory removed
// while the server runs (rm -rf <data>/audit), the first call's record
// fails, and every later call is refused and does not run, even after
// the directory is made again: no tool call goes unaudited, and no new
// chain is started.
func TestRegistryPausesWhenLogRemoved(t *testing.T) {
	l, dir, _ := openLog(t)
	r := tools.NewRegistry(tools.Config{Audit: l})
	tool := &countTool{}
	if err := r.Register(tool); err != nil {
		t.Fatal(err)
	}
	run := func() tools.Outcome {
		return r.Execute(context.Background(), &tools.Call{User: "alice"}, "count", `{}`)
	}
	if o := run(); !o.Result.Success {
		t.Fatalf("%+v", o.Result)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	run() // refused before it runs: its record could not be kept
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if o := run(); o.Result.Success {
			t.Fatalf("a call ran with the audit log removed: %+v", o.Result)
		}
	}
	if tool.n != 1 {
		t.Errorf("the tool ran %d times, want 1 (none after the removal)", tool.n)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("records written to a new directory: %v", ents)
	}
}
