package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/client"
	igolden "opsassist/internal/golden"
)

// historySample is a server's history text: an upload, a question, an
// answer in Markdown (heading, bold, a list, a code block, a table).
const historySample = "=== 对话历史 History ===\n" +
	"\n用户 user: 看看 **app.log** 有什么错误？\n" +
	"\n助手 assistant: ## 结论\n\n发现 **2** 处错误：\n\n1. 端口冲突\n2. 磁盘满\n\n```sh\ndf -h /var\n```\n\n| 文件 | 行 |\n|---|---|\n| app.log | 42 |\n" +
	"\n📎 stdin.txt (file_id: 9833ef2a-3bf5, 37 bytes)\n" +
	"\n📎 big.bin (file_id: 1234abcd-0000, 80000000 bytes)\n"

// historySampleResult is historySample with the RESULT data that
// describes it.
func historySampleResult(t *testing.T) client.Result {
	t.Helper()
	data, err := json.Marshal(map[string]any{
		"messages": []map[string]any{
			{"role": "user", "content": "看看 **app.log** 有什么错误？"},
			{"role": "assistant", "content": "## 结论\n\n发现 **2** 处错误：\n\n1. 端口冲突\n2. 磁盘满\n\n```sh\ndf -h /var\n```\n\n| 文件 | 行 |\n|---|---|\n| app.log | 42 |"},
		},
		"uploads_total": 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	return client.Result{Kind: client.KindHistory, Text: historySample, Data: data}
}

// TestHistoryRendered: /history renders each message's Markdown as live
// answers are (no ``` fences or ** left) under its role label, when
// answers are rendered; uploads are a line in the CLI's language with a
// readable size, rendered or not; with rendering off the messages stay
// Markdown source. Golden: testdata/history_view.golden.
func TestHistoryRendered(t *testing.T) {
	var b strings.Builder
	for _, lang := range []string{"zh_CN.UTF-8", "en_US.UTF-8"} {
		for _, mode := range []string{renderAlways, renderNever} {
			c := &CLI{Getenv: func(k string) string {
				switch k {
				case "LANG":
					return lang
				case EnvNoColor:
					return "1"
				}
				return ""
			}}
			r := c.newREPL(cliConfig{render: renderFlag{mode}}, nil)
			got := r.historyView(historySampleResult(t))
			if strings.Contains(got, "📎") || strings.Contains(got, "bytes)") {
				t.Errorf("%s %s: upload line not rewritten:\n%s", lang, mode, got)
			}
			rendered := !strings.Contains(got, "```") && !strings.Contains(got, "**")
			if rendered != (mode == renderAlways) {
				t.Errorf("%s %s: rendered %v:\n%s", lang, mode, rendered, got)
			}
			fmt.Fprintf(&b, "--- %s %s\n%s\n", lang, mode, got)
		}
	}
	igolden.Check(t, filepath.Join("testdata", "history_view.golden"), b.String(), *update)
}

// TestHistoryViewBodiesVerbatim: a rendered /history finds its messages
// with the RESULT's data, so a body line that looks like a role label
// ("user: …", "用户：…") stays inside its message instead of starting a
// new one.
func TestHistoryViewBodiesVerbatim(t *testing.T) {
	body := "the log says:\nuser: admin logged in\n用户：root"
	text := historyHead + "\n" + historyUser + "who logged in?\n" + "\n" + historyAssistant + body + "\n"
	data, _ := json.Marshal(map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "who logged in?"},
		{"role": "assistant", "content": body},
	}})
	c := &CLI{Getenv: func(k string) string {
		if k == EnvNoColor {
			return "1"
		}
		return map[string]string{"LANG": "en_US.UTF-8"}[k]
	}}
	r := c.newREPL(cliConfig{render: renderFlag{renderAlways}}, nil)
	got := r.historyView(client.Result{Kind: client.KindHistory, Text: text, Data: data})
	if n := strings.Count(got, "\nassistant:\n"); n != 1 {
		t.Errorf("%d assistant labels:\n%s", n, got)
	}
	if n := strings.Count(got, "\nuser:\n"); n != 1 {
		t.Errorf("%d user labels, want 1 (the body's \"user: admin\" is text):\n%s", n, got)
	}
	if !strings.Contains(got, "user: admin logged in") || !strings.Contains(got, "用户：root") {
		t.Errorf("the body was changed:\n%s", got)
	}
}
