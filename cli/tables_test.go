package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"opsassist/api"
	"opsassist/client"
	igolden "opsassist/internal/golden"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestListsInOneLanguage: the REPL's conversation and model lists are
// in the CLI's language only, not the server's bilingual text.
func TestListsInOneLanguage(t *testing.T) {
	list := client.SessionList{Current: "7e469b6b-1", Sessions: []client.SessionInfo{{SessionID: "7e469b6b-1", Title: "磁盘", Messages: 4}}}
	models := modelsResult{ModelList: client.ModelList{Current: "builtin", Models: []string{"builtin", "ollama"}},
		Details: []modelDetail{{Name: "builtin", Provider: "builtin", Reachable: true}, {Name: "ollama", Provider: "ollama", Reason: "connection refused", CheckedAt: "2026-11-24T07:00:00Z"}}}
	for _, tc := range []struct {
		lang      string
		want, not []string
	}{
		{"en_US.UTF-8", []string{"=== Conversations ===", "(current)", "messages: 4", "Models:", "reachable", "unreachable: connection refused"}, []string{"会话", "消息", "可达", "模型"}},
		{"zh_CN.UTF-8", []string{"=== 对话列表 ===", "（当前）", "消息 4", "可用模型：", "可达", "不可达：连接被拒绝"}, []string{"Sessions", "messages", "reachable", "Models", "NAME", "connection refused"}},
	} {
		c := &CLI{Getenv: func(k string) string {
			if k == "LANG" {
				return tc.lang
			}
			return ""
		}}
		r := c.newREPL(cliConfig{}, nil)
		got := r.cli.sessionsText(list, "") + "\n" + r.modelsText(models)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.lang, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: has %q:\n%s", tc.lang, n, got)
			}
		}
	}
}

// TestDownloadLineZh: the REPL's download line in Chinese, resume
// included.
func TestDownloadLineZh(t *testing.T) {
	got := downloadLineZh(client.DownloadResult{Path: "big.bin", Size: 2048, Transport: "rdt", Duration: "1.2s", Resumed: 1024})
	if want := "已下载 big.bin（2.0 KiB），经 rdt，用时 1.2s，sha256 已校验，从 1.0 KiB 处续传"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestAskModelRefusedInZhLocale: a refused --model is reported in
// Chinese in a zh locale, even for an English question, with the
// server's English message mapped by its code.
func TestAskModelRefusedInZhLocale(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ModelSwitch)
		fc.Error(api.CodeUnknownModel, `unknown model "nosuch" (have [builtin ollama])`)
		fc.End()
		fc.ExpectClose()
	})
	code, _, stderr := runCLIEnv(t, map[string]string{EnvServer: s.Addr, "LANG": "zh_CN.UTF-8"}, "", "ask", "--model", "nosuch", "disk?")
	if want := "opsassist: 无法切换到模型 \"nosuch\": 没有这个模型 \"nosuch\"（可用：builtin、ollama）\n"; code != ExitError || stderr != want {
		t.Errorf("exit %d\nstderr %q\nwant   %q", code, stderr, want)
	}
}

// TestModelsTableFitsWidth: at 60 columns the /model table fits (the base
// URL column goes first, then the provider; a long status is cut), its
// heads are in the CLI's language; off a terminal (width 0) every column
// stays. Golden: testdata/models_table.golden.
func TestModelsTableFitsWidth(t *testing.T) {
	m := modelsResult{ModelList: client.ModelList{Current: "deepseek", Models: []string{"builtin", "ollama", "deepseek"}},
		Details: []modelDetail{
			{Name: "builtin", Provider: "builtin", Reachable: true, CheckedAt: "2026-11-24T07:00:00Z"},
			{Name: "ollama", Provider: "ollama", Model: "qwen2.5", BaseURL: "http://127.0.0.1:11434/v1", Reason: "connection refused", CheckedAt: "2026-11-24T07:00:00Z"},
			{Name: "deepseek", Provider: "deepseek", Model: "deepseek-chat", BaseURL: "https://api.deepseek.com/v1", Reason: "dial tcp: lookup api.deepseek.com on 127.0.0.53:53: server misbehaving", CheckedAt: "2026-11-24T07:00:00Z"},
		}}
	var b strings.Builder
	for _, lang := range []string{"en_US.UTF-8", "zh_CN.UTF-8"} {
		c := &CLI{Getenv: func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}}
		for _, width := range []int{0, 100, 60, 40} {
			got := c.modelsTable(m, width)
			for _, line := range strings.Split(got, "\n") {
				if width > 0 && runewidth.StringWidth(line) > width {
					t.Errorf("%s at %d: %d columns: %q", lang, width, runewidth.StringWidth(line), line)
				}
			}
			if c.chinese() && (strings.Contains(got, "NAME") || !strings.Contains(got, "名称")) {
				t.Errorf("%s: heads not in Chinese:\n%s", lang, got)
			}
			fmt.Fprintf(&b, "--- %s width %d\n%s\n", lang, width, got)
		}
	}
	igolden.Check(t, filepath.Join("testdata", "models_table.golden"), b.String(), *update)
}
