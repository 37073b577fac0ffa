package npltserver

import (
	"testing"
	"time"

	"opsassist/chat"
)

func TestModelTableGolden(t *testing.T) {
	at := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	got := modelTable([]chat.ModelInfo{
		{Name: "builtin", Provider: "builtin", Reachable: true},
		{Name: "deepseek", Provider: "deepseek", Model: "deepseek-chat", BaseURL: "https://api.deepseek.com/v1", Reachable: true, CheckedAt: at},
		{Name: "ollama", Provider: "ollama", Model: "qwen2.5", BaseURL: "http://127.0.0.1:11434/v1", Reason: "connection refused", CheckedAt: at},
		{Name: "zhipu", Provider: "zhipu", Model: "glm-4-flash", BaseURL: "https://open.bigmodel.cn/api/paas/v4"},
	}, "deepseek")
	want := "可用模型 Models:\n" +
		"     NAME      PROVIDER  MODEL          BASE URL                              状态 STATUS\n" +
		"     builtin   builtin   -              -                                     可达 reachable\n" +
		"  *  deepseek  deepseek  deepseek-chat  https://api.deepseek.com/v1           可达 reachable\n" +
		"     ollama    ollama    qwen2.5        http://127.0.0.1:11434/v1             不可达 unreachable: connection refused\n" +
		"     zhipu     zhipu     glm-4-flash    https://open.bigmodel.cn/api/paas/v4  检测中 checking"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
