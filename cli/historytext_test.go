package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/client"
)

// TestHistoryTextBodiesVerbatim: /history relabels only the labels the
// server wrote; a body holding "用户 user: " or "助手 assistant: " at a
// line start, or the cancelled mark, is shown as it was written — also
// a body the RESULT's data cut, and with uploads after the messages.
func TestHistoryTextBodiesVerbatim(t *testing.T) {
	trap := "see the log:\n\n用户 user: root\n\n助手 assistant: fake（已取消 cancelled）\n(空 empty)"
	long := strings.Repeat("x", 50) + "\n\n用户 user: inside\n"
	text := historyHead +
		"\n用户 user: " + trap + "\n" +
		"\n助手 assistant: " + long + "（已取消 cancelled）\n" +
		"\n用户 user: " + long + "\n" +
		"\n📎 a.log (file_id: f1, 3 bytes)\n"
	msgs := []map[string]any{
		{"role": "user", "content": trap},
		{"role": "tool", "content": "not shown"},
		{"role": "assistant", "content": long[:20] + historyCut, "cancelled": true},
		{"role": "user", "content": long[:10] + historyCut},
	}
	data, _ := json.Marshal(map[string]any{"messages": msgs, "total": 4, "uploads_total": 1})
	res := client.Result{Kind: client.KindHistory, Data: data, Text: text}
	for lang, want := range map[string]string{
		"": "=== History ===\n\nuser: " + trap + "\n\nassistant: " + long + " (cancelled)\n\nuser: " + long +
			"\n\n📎 a.log (file_id: f1, 3 bytes)",
		"zh_CN.UTF-8": "=== 对话历史 ===\n\n用户：" + trap + "\n\n助手：" + long + "（已取消）\n\n用户：" + long +
			"\n\n📎 a.log (file_id: f1, 3 bytes)",
	} {
		got, ok := localeCLI(lang).resultText(res)
		if !ok || got != want {
			t.Errorf("in %q:\n%q\nwant\n%q", lang, got, want)
		}
	}
}

// TestHistoryTextUndescribed: a text the data does not describe (older
// messages left out of the data) keeps the server's labels and bodies;
// only the heading is in the CLI's language.
func TestHistoryTextUndescribed(t *testing.T) {
	text := historyHead + "\n用户 user: a\n\n用户 user: b\n"
	data := json.RawMessage(`{"messages":[{"role":"user","content":"b"}],"total":2,"truncated":true}`)
	got, _ := localeCLI("").resultText(client.Result{Kind: client.KindHistory, Data: data, Text: text})
	if want := "=== History ===\n\n用户 user: a\n\n用户 user: b"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestHistoryTextCutBodyQuotingTheNext: two messages the data cut, the
// first quoting the second's label and opening inside its body. Which
// label is the real one cannot be told from the data, so the text is
// shown as the server wrote it (heading aside): never with the quoted
// label relabelled and the real one left.
func TestHistoryTextCutBodyQuotingTheNext(t *testing.T) {
	second := "restart nginx " + strings.Repeat("y", 40)
	first := "the log says:\n\n用户 user: " + second[:20] + " and more " + strings.Repeat("x", 40)
	text := historyHead + "\n用户 user: " + first + "\n" + "\n用户 user: " + second + "\n"
	msgs := []map[string]any{
		{"role": "user", "content": first[:10] + historyCut},
		{"role": "user", "content": second[:16] + historyCut},
	}
	data, _ := json.Marshal(map[string]any{"messages": msgs, "total": 2})
	res := client.Result{Kind: client.KindHistory, Data: data, Text: text}
	got, ok := localeCLI("zh_CN.UTF-8").resultText(res)
	if want := "=== 对话历史 ===\n" + strings.TrimPrefix(strings.TrimRight(text, "\n"), historyHead); !ok || got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// The same history without the quote is relabelled.
	first = "the log says: nothing " + strings.Repeat("x", 40)
	text = historyHead + "\n用户 user: " + first + "\n" + "\n用户 user: " + second + "\n"
	msgs[0]["content"] = first[:10] + historyCut
	data, _ = json.Marshal(map[string]any{"messages": msgs, "total": 2})
	res = client.Result{Kind: client.KindHistory, Data: data, Text: text}
	got, _ = localeCLI("zh_CN.UTF-8").resultText(res)
	if want := "=== 对话历史 ===\n\n用户：" + first + "\n\n用户：" + second; got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
