package agent

import (
	"context"
	"strings"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

// TestFailedCallStatusInTheUsersLanguage: the tool_result status of a
// call that did not succeed says why in the user's language (from its
// failure code), while the model still reads the raw error.
func TestFailedCallStatusInTheUsersLanguage(t *testing.T) {
	for _, tc := range []struct{ input, want, not string }{
		{"试试", "nope 失败：无法调用（nope：", "unknown tool"},
		{"try it", "nope failed: The call could not be made (nope:", "unknown tool"},
	} {
		p := &scriptPlanner{steps: []Step{
			{ToolCalls: []history.ToolCall{call("c1", "nope", `{}`)}},
			{Content: "ok"},
		}}
		r := &testkit.Recorder{}
		msgs, err := newAgent(t, p, 0).Respond(context.Background(), &chat.Turn{Input: tc.input, Model: "builtin"}, r)
		if err != nil {
			t.Fatal(err)
		}
		status := strings.Join(r.Statuses, "\n")
		if !strings.Contains(status, tc.want) || strings.Contains(status, tc.not) {
			t.Errorf("%q: statuses %q, want %q without %q", tc.input, status, tc.want, tc.not)
		}
		if !strings.Contains(msgs[1].Content, `unknown tool \"nope\"`) || !strings.Contains(msgs[1].Content, `"code":"validation"`) {
			t.Errorf("%q: the model's view %s", tc.input, msgs[1].Content)
		}
	}
}
