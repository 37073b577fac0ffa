package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/storage/history"
)

// TestCancelledAnswerIsMarked: a cancelled answer reaches the model with
// a note saying so, never empty, even when nothing was streamed.
func TestCancelledAnswerIsMarked(t *testing.T) {
	f, srv := newFake(t, reply{chunks: []map[string]any{text("ok")}})
	msgs := []history.Message{
		{Role: "user", Content: "分析日志"},
		{Role: "assistant", Content: "正在分析", Cancelled: true},
		{Role: "user", Content: "磁盘呢？"},
		{Role: "assistant", Cancelled: true},
		{Role: "user", Content: "and now?"},
	}
	if _, err := newPlanner(srv, nil).Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{}, Messages: msgs}, func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var got []struct{ Role, Content string }
	b, _ := json.Marshal(f.requests[0]["messages"])
	json.Unmarshal(b, &got)
	if len(got) != 6 || got[2].Content != "正在分析\n"+cancelledNote || got[4].Content != cancelledNote || strings.Contains(got[1].Content, cancelledNote) {
		t.Fatalf("messages %s", b)
	}
}
