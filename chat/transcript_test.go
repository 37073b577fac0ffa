package chat_test

import (
	"strings"
	"testing"
	"time"

	"opsassist/chat"
	"opsassist/storage/history"
)

func TestTranscriptSummarisesToolCalls(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", 500)
	msgs := []history.Message{
		{Role: "user", Content: "磁盘满了吗？", Time: t0},
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c1", Name: "sys_monitor", Arguments: "{\"metric\":\n\"disk`\"}"}}, Time: t0},
		{Role: "tool", ToolCallID: "c1", Name: "sys_monitor", Content: long, Time: t0},
		{Role: "assistant", Content: "根分区 91%。", Time: t0},
		{Role: "assistant", Content: "半句", Cancelled: true, Time: t0},
	}
	sum := history.Summary{ID: "abcd-1", Title: "磁盘\n排查", CreatedAt: t0}
	md := chat.Transcript(sum, msgs, []history.Upload{{FileID: "f1", Filename: "a.log", Size: 3}})
	for _, want := range []string{
		"# 磁盘 排查\n",
		"对话 `abcd-1` · 开始于 2026-11-24 06:00:00 UTC\n",
		"## 用户\n\n磁盘满了吗？\n",
		"- 工具 `sys_monitor` `{\"metric\": \"disk'\"}` → `" + strings.Repeat("x", 200) + "…`\n",
		"根分区 91%。\n",
		"（已取消）",
		"- a.log (3 B, `f1`)\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("transcript lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, strings.Repeat("x", 201)) {
		t.Error("tool result not cut")
	}
	if en := chat.Transcript(history.Summary{ID: "e"}, []history.Message{{Role: "user", Content: "hi"}}, nil); !strings.Contains(en, "# New conversation\n") || !strings.Contains(en, "## User\n\nhi\n") {
		t.Errorf("english transcript:\n%s", en)
	}
}
