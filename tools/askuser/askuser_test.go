package askuser_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"opsassist/tools"
	"opsassist/tools/askuser"
)

func run(t *testing.T, ask func(context.Context, tools.Question) (tools.Answered, error), args string) tools.Outcome {
	t.Helper()
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(askuser.Tool{}); err != nil {
		t.Fatal(err)
	}
	return reg.Execute(context.Background(), &tools.Call{ToolCallID: "c1", AskUser: ask}, askuser.Name, args)
}

func TestAskUser(t *testing.T) {
	var got tools.Question
	ok := func(_ context.Context, q tools.Question) (tools.Answered, error) {
		got = q
		return tools.Answered{Answer: "b", Option: "b", By: tools.ByUser}, nil
	}
	o := run(t, ok, `{"question":"which?","kind":"choice","options":[{"id":"a","label":"A","recommended":true},{"id":"b","label":"B"}],"default":"a","timeout":30}`)
	if !o.Result.Success || string(o.Result.Output) != `{"answer":"b","option":"b","answered_by":"user"}` {
		t.Fatalf("%+v", o.Result)
	}
	if got.Kind != "choice" || len(got.Options) != 2 || !got.Options[0].Recommended || got.Default != "a" || got.Timeout != 30*time.Second {
		t.Fatalf("question %+v", got)
	}
	timeout := func(context.Context, tools.Question) (tools.Answered, error) {
		return tools.Answered{By: tools.ByTimeout}, nil
	}
	if o := run(t, timeout, `{"question":"q","kind":"text"}`); string(o.Result.Output) != `{"answer":"","answered_by":"timeout"}` {
		t.Fatalf("%+v", o.Result)
	}
	def := func(context.Context, tools.Question) (tools.Answered, error) {
		return tools.Answered{Answer: "yes", By: tools.ByDefault}, nil
	}
	if o := run(t, def, `{"question":"q","kind":"confirm","default":"yes"}`); string(o.Result.Output) != `{"answer":"yes","answered_by":"default"}` {
		t.Fatalf("%+v", o.Result)
	}
	cancel := func(context.Context, tools.Question) (tools.Answered, error) {
		return tools.Answered{By: tools.ByCancel}, nil
	}
	if o := run(t, cancel, `{"question":"q","kind":"text"}`); o.Result.Success || !strings.Contains(o.Result.Error, "no answer") {
		t.Fatalf("%+v", o.Result)
	}
	failing := func(context.Context, tools.Question) (tools.Answered, error) {
		return tools.Answered{}, errors.New("gone")
	}
	if o := run(t, failing, `{"question":"q","kind":"text"}`); o.Result.Success {
		t.Fatalf("%+v", o.Result)
	}
	if o := run(t, nil, `{"question":"q","kind":"text"}`); o.Result.Success || !strings.Contains(o.Result.Error, "cannot be asked") {
		t.Fatalf("%+v", o.Result)
	}
}

func TestAskUserBadArgs(t *testing.T) {
	never := func(context.Context, tools.Question) (tools.Answered, error) {
		t.Fatal("asked")
		return tools.Answered{}, nil
	}
	for _, args := range []string{
		`{"question":"q"}`,
		`{"question":"","kind":"text"}`,
		`{"question":"q","kind":"essay"}`,
		`{"question":"q","kind":"choice"}`,
		`{"question":"q","kind":"text","options":[{"id":"a","label":"A"}]}`,
		`{"question":"q","kind":"choice","options":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}`,
		`{"question":"q","kind":"choice","options":[{"id":"a","label":"A"}],"default":"z"}`,
		`{"question":"q","kind":"text","timeout":0}`,
		`{"question":"q","kind":"text","timeout":601}`,
		`{"question":"q","kind":"text","extra":1}`,
	} {
		if o := run(t, never, args); o.Result.Success {
			t.Fatalf("%s: %+v", args, o.Result)
		}
	}
	if s := (askuser.Tool{}).Spec(); s.Risk != tools.RiskReadOnly {
		t.Fatalf("risk %s", s.Risk)
	}
}
