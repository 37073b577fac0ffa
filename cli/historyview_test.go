package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	igolden "opsassist/internal/golden"
)

// historySample is a server's history text: an upload, a question, an
// answer in Markdown (heading, bold, a list, a code block, a table).
const historySample = "=== 对话历史 History ===\n" +
	"\n用户 user: 看看 **app.log** 有什么错误？\n" +
	"\n助手 assistant: ## 结论\n\n发现 **2** 处错误：\n\n1. 端口冲突\n2. 磁盘满\n\n```sh\ndf -h /var\n```\n\n| 文件 | 行 |\n|---|---|\n| app.log | 42 |\n" +
	"\n📎 stdin.txt (file_id: 9833ef2a-3bf5, 37 bytes)\n" +
	"\n📎 big.bin (file_id: 1234abcd-0000, 80000000 bytes)\n"

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
			got := r.historyView(c.historyText(historySample))
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
