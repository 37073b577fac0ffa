package agent

import (
	"context"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
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
