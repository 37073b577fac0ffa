package agent

import (
	"context"
	"strings"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// outcomeRecorder is a Recorder that also takes tool outcomes
// (chat.ToolResulter).
type outcomeRecorder struct {
	testkit.Recorder
	outcomes []outcome
}

type outcome struct {
	content string
	success bool
	code    string
}

func (r *outcomeRecorder) ToolResult(content string, success bool, code string) error {
	r.outcomes = append(r.outcomes, outcome{content, success, code})
	return nil
}

// TestToolResultCarriesOutcome: a Responder that takes tool outcomes
// gets each call's success and failure code with the tool_result text,
// so a client can mark the failed call as failed.
func TestToolResultCarriesOutcome(t *testing.T) {
	p := &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{call("c1", "nope", `{}`)}},
		{Content: "ok"},
	}}
	r := &outcomeRecorder{}
	if _, err := newAgent(t, p, 0).Respond(context.Background(), &chat.Turn{Input: "try it", Model: "builtin"}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.outcomes) != 1 || r.outcomes[0].success || r.outcomes[0].code != "validation" ||
		r.outcomes[0].content == "" {
		t.Fatalf("outcomes %+v", r.outcomes)
	}
}

// fullRecorder is an outcomeRecorder that also takes complete results
// (chat.FullResulter).
type fullRecorder struct {
	outcomeRecorder
	fulls []string
}

func (r *fullRecorder) ToolResultFull(content string, success bool, code, full string) error {
	r.fulls = append(r.fulls, full)
	return r.ToolResult(content, success, code)
}

// TestToolResultCarriesFullOutput: a call whose output the model gets
// shortened passes its complete result with its outcome, at once (the
// same JSON the history keeps as Full); a short one does not.
func TestToolResultCarriesFullOutput(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	reg.Register(big{})
	reg.Register(upper{})
	p := &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{call("c1", "big", `{}`)}},
		{ToolCalls: []history.ToolCall{call("c2", "upper", `{"text":"a"}`)}},
		{Content: "ok"},
	}}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	r := &fullRecorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.fulls) != 1 || len(r.outcomes) != 2 || !r.outcomes[0].success {
		t.Fatalf("fulls %d, outcomes %+v", len(r.fulls), r.outcomes)
	}
	if r.fulls[0] != msgs[1].Full || !strings.Contains(r.fulls[0], strings.Repeat("x", 40000)) {
		t.Fatalf("live full output (%d bytes) is not the history's (%d bytes)", len(r.fulls[0]), len(msgs[1].Full))
	}
}
