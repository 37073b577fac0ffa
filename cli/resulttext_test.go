package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// localeCLI is a CLI in the locale lang ("" for English).
func localeCLI(lang string) *CLI {
	return &CLI{Getenv: func(k string) string {
		if k == "LANG" {
			return lang
		}
		return ""
	}}
}

// TestResultTextOneLanguage: the results the server words in both
// languages are said in the CLI's one, from their data.
func TestResultTextOneLanguage(t *testing.T) {
	sess := func(text string) client.Result {
		d, _ := json.Marshal(map[string]any{"session_id": "feaaab66-1111", "title": "disk", "model": "builtin"})
		return client.Result{Kind: client.KindSession, Data: d, Text: text}
	}
	hist := client.Result{Kind: client.KindHistory, Data: json.RawMessage(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello","cancelled":true}],"total":2}`),
		Text: "=== 对话历史 History ===\n\n用户 user: hi\n\n助手 assistant: hello（已取消 cancelled）\n"}
	empty := client.Result{Kind: client.KindHistory, Data: json.RawMessage(`{}`), Text: "=== 对话历史 History ===\n(空 empty)\n"}
	cases := []struct {
		res    client.Result
		en, zh string
	}{
		{sess("已创建新会话 New session: feaaab66-1111"), "New conversation: feaaab66-1111", "已创建新对话：feaaab66-1111"},
		{sess("已切换到会话 Switched to session: [feaaab66] disk\n模型 Model: builtin"), "Switched to conversation: [feaaab66] disk\nModel: builtin", "已切换到对话：[feaaab66] disk\n模型：builtin"},
		{sess("已重命名会话 Renamed session: [feaaab66] disk"), "Renamed conversation: [feaaab66] disk", "已重命名对话：[feaaab66] disk"},
		{sess("已删除会话 Deleted session: [0123abcd] 新会话 new session; 当前会话 current: feaaab66"), "Deleted conversation: [0123abcd] (untitled); current: feaaab66", "已删除对话：[0123abcd] （无标题）；当前对话：feaaab66"},
		{client.Result{Kind: client.KindCleared, Data: json.RawMessage(`{}`), Text: "会话已清空 History cleared."}, "Conversation cleared.", "对话已清空"},
		{hist, "=== History ===\n\nuser: hi\n\nassistant: hello (cancelled)", "=== 对话历史 ===\n\n用户：hi\n\n助手：hello（已取消）"},
		{empty, "=== History ===\n(empty)", "=== 对话历史 ===\n（空）"},
	}
	for _, tc := range cases {
		for lang, want := range map[string]string{"": tc.en, "zh_CN.UTF-8": tc.zh} {
			got, ok := localeCLI(lang).resultText(tc.res)
			if !ok || got != want {
				t.Errorf("%q in %q: %q, %v\nwant %q", tc.res.Text, lang, got, ok, want)
			}
		}
	}
	if _, ok := localeCLI("").resultText(sess("a newer server's words")); ok {
		t.Error("an unknown text was reworded")
	}
}

// TestREPLNoticesOneLanguage: in the REPL an index notice and a download
// offer are in the CLI's language, and /new prints its result in it.
func TestREPLNoticesOneLanguage(t *testing.T) {
	for lang, want := range map[string][]string{
		"":            {"🔎 indexed for search: app.yaml\n", "download offered: ", "New conversation: sess-new\n"},
		"zh_CN.UTF-8": {"🔎 已建立索引，可以搜索：app.yaml\n", "可下载：", "之后输入 /download tok 即可下载 x.csv", "已创建新对话：sess-new\n"},
	} {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.SendJSON(nplt.UploadIndexed, nplt.UploadIndexedPayload{Filename: "app.yaml", Indexed: true})
			fc.SendJSON(nplt.DownloadOffer, api.Offer{Filename: "x.csv", FileSize: 10, DownloadToken: "tok", TransportMode: api.TransportRDT})
			fc.Text("ok")
			fc.End()
			fc.Expect(nplt.SessionNew)
			fc.Result(client.KindSession, map[string]any{"session_id": "sess-new"})
			fc.Text("已创建新会话 New session: sess-new")
			fc.End()
			fc.ReadUntilEOF()
		})
		var out bytes.Buffer
		r := newTestREPL(t, s, &out)
		r.cli.Getenv = func(k string) string {
			if k == "LANG" || k == EnvDownload {
				return map[string]string{"LANG": lang, EnvDownload: "ask"}[k]
			}
			return ""
		}
		ctx, cancel := testContext(t)
		r.execute(ctx, "hi")
		r.execute(ctx, "/new") // its reply comes after the notice
		r.flushNotices()
		cancel()
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%q: output lacks %q:\n%s", lang, w, out.String())
			}
		}
	}
}

// TestResultTextByAction: a server that says what a session command did
// (data "action") is worded from the data whatever its text.
func TestResultTextByAction(t *testing.T) {
	res := func(data string) client.Result {
		return client.Result{Kind: client.KindSession, Data: json.RawMessage(data), Text: "a newer server's words"}
	}
	for _, tc := range []struct {
		data, en, zh string
	}{
		{`{"session_id":"feaaab66-1111","title":"disk","model":"builtin","action":"new"}`, "New conversation: feaaab66-1111", "已创建新对话：feaaab66-1111"},
		{`{"session_id":"feaaab66-1111","title":"disk","model":"ollama","action":"switch"}`, "Switched to conversation: [feaaab66] disk\nModel: ollama", "已切换到对话：[feaaab66] disk\n模型：ollama"},
		{`{"session_id":"feaaab66-1111","title":"","model":"builtin","action":"rename"}`, "Renamed conversation: [feaaab66] (untitled)", "已重命名对话：[feaaab66] （无标题）"},
		{`{"session_id":"feaaab66-1111","title":"disk","action":"delete","deleted":{"session_id":"0123abcd-2222","title":"old"}}`, "Deleted conversation: [0123abcd] old; current: feaaab66", "已删除对话：[0123abcd] old；当前对话：feaaab66"},
	} {
		for lang, want := range map[string]string{"": tc.en, "zh_CN.UTF-8": tc.zh} {
			if got, ok := localeCLI(lang).resultText(res(tc.data)); !ok || got != want {
				t.Errorf("%s in %q: %q, %v\nwant %q", tc.data, lang, got, ok, want)
			}
		}
	}
}

// TestREPLUploadOneLanguage: /upload's confirmation is in the CLI's
// language (the one-shot upload's stdout line stays English).
func TestREPLUploadOneLanguage(t *testing.T) {
	for lang, want := range map[string]string{
		"":            "uploaded a.log (68.4 KiB): file_id=file-1 sha256=",
		"zh_CN.UTF-8": "已上传 a.log（68.4 KiB）：file_id=file-1 sha256=",
	} {
		path, data := npltfake.WriteFile(t, "a.log", 70000)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Upload(data, "a.log")
			fc.ReadUntilEOF()
		})
		var out bytes.Buffer
		r := newTestREPL(t, s, &out)
		r.cli.Getenv = func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}
		ctx, cancel := testContext(t)
		r.execute(ctx, "/upload "+path)
		cancel()
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q: output lacks %q:\n%s", lang, want, out.String())
		}
	}
}
