package agent

import (
	"strings"
	"testing"

	"opsassist/storage/history"
)

func TestTrimHistoryDropsOldestWholeTurns(t *testing.T) {
	big := strings.Repeat("数据", 500) // ~1000 tokens
	msgs := []history.Message{
		{Role: "user", Content: big},
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "a", Name: "sys_monitor", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "a", Content: big},
		{Role: "assistant", Content: "ok"},
		{Role: "user", Content: "second"},
		{Role: "assistant", Content: "fine"},
		{Role: "user", Content: big},
		{Role: "assistant", Content: big},
	}
	got := trimHistory(msgs, 2500)
	if len(got) != 4 || got[0].Content != "second" {
		t.Fatalf("kept %d from %q", len(got), got[0].Content[:min(6, len(got[0].Content))])
	}
	// The newest turn is kept even when it alone is over budget.
	if got := trimHistory(msgs, 10); len(got) != 2 || got[0].Role != "user" {
		t.Fatalf("kept %d", len(got))
	}
	if got := trimHistory(msgs, 1<<20); len(got) != len(msgs) {
		t.Fatal("trimmed within budget")
	}
	if n := estimateTokens(history.Message{Content: strings.Repeat("a", 400)}); n < 100 || n > 110 {
		t.Fatal(n)
	}
	if n := estimateTokens(history.Message{Content: strings.Repeat("中", 100)}); n < 100 || n > 110 {
		t.Fatal(n)
	}
}
