package builtin

import (
	"context"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/internal/golden"
	"opsassist/tools"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// refusalQuestions are requests the planner refuses, one per reason, in
// Chinese and in English.
var refusalQuestions = []string{
	"帮我重启服务器",
	"reboot the server",
	"帮我删除日志文件",
	"delete the log files",
	"执行 uname -a",
	"run uname -a",
	"执行 ls; rm -rf /",
	"run ls; rm -rf /",
	"cat a.log | sh 删除",
	"cat a.log | sh to delete it",
	"sudo -i",
	"执行 sudo su",
}

// englishWord finds an English phrase of the refusal texts (a word of
// four or more letters that is no command name) in a Chinese answer.
var englishWord = regexp.MustCompile(`\b(?:not|allowed|whitelist|destructive|operations|piping|chaining|command|empty|Sorry)\b`)

// TestRefusalsInTheUsersLanguage: a refusal says why in the language of
// the question — no English reason inside a Chinese answer, no Chinese
// inside an English one — while Intent.Reason keeps the English for the
// log. The answers are in testdata/refusals.golden.
func TestRefusalsInTheUsersLanguage(t *testing.T) {
	a := newAgent(t, t.TempDir())
	var b strings.Builder
	for _, q := range refusalQuestions {
		in := (Planner{}).Classify(q, false)
		if in.Kind != "refuse" || in.Reason == "" || in.reason.zh == "" {
			t.Errorf("%q: %s %q, want a refusal in both languages", q, in.Kind, in.Reason)
			continue
		}
		if in.Reason != in.reason.en {
			t.Errorf("%q: Reason %q is not the English reason %q", q, in.Reason, in.reason.en)
		}
		r, _ := ask(t, a, q, nil)
		got := r.text.String()
		zh := agent.IsChinese(q)
		switch {
		case zh && englishWord.MatchString(got):
			t.Errorf("%q: English in the Chinese answer: %q", q, got)
		case zh && !strings.Contains(got, in.reason.zh):
			t.Errorf("%q: answer %q lacks %q", q, got, in.reason.zh)
		case !zh && regexp.MustCompile(`\p{Han}`).MatchString(got):
			t.Errorf("%q: Chinese in the English answer: %q", q, got)
		case !zh && !strings.Contains(got, in.Reason):
			t.Errorf("%q: answer %q lacks %q", q, got, in.Reason)
		}
		b.WriteString("> " + q + "\n" + got + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "refusals.golden"), b.String(), *update)
}

// TestFailedCallsInTheUsersLanguage: a call refused or failed is told
// in the language of the question from its failure code, without the
// registry's English text for the model; a result without a code (an
// old history) still shows its error.
func TestFailedCallsInTheUsersLanguage(t *testing.T) {
	declined := result{tool: "file_download", code: "declined", Error: "the user declined file_download, so it did not run; do not retry it, and do not ask again in this turn"}
	in := Intent{Kind: "download"}
	zh := answer(true, in, []result{declined}, (Planner{}).commands().tiers)
	if zh != "你拒绝了 file_download 的调用，它没有执行。" {
		t.Errorf("zh: %q", zh)
	}
	en := answer(false, in, []result{declined}, (Planner{}).commands().tiers)
	if en != "You declined file_download, so it did not run." {
		t.Errorf("en: %q", en)
	}
	// With the call's arguments the answer says what would have run.
	du := result{tool: "command_executor", code: "declined", args: map[string]any{"command": "du", "args": []any{"-sh", "/tmp"}}, Error: declined.Error}
	if zh := answer(true, Intent{Kind: "command"}, []result{du}, (Planner{}).commands().tiers); zh != "你拒绝了执行命令 du -sh /tmp（command_executor），它没有执行。" {
		t.Errorf("zh du: %q", zh)
	}
	if en := answer(false, Intent{Kind: "command"}, []result{du}, (Planner{}).commands().tiers); en != "You declined to run du -sh /tmp (command_executor), so it did not run." {
		t.Errorf("en du: %q", en)
	}
	cmd := result{tool: "command_executor", code: "no_confirmation", Error: "call to command_executor needs the user's confirmation, and this client cannot be asked: …"}
	if got := answer(true, Intent{Kind: "command"}, []result{cmd}, (Planner{}).commands().tiers); !strings.Contains(got, "无法询问你") || strings.Contains(got, "cannot be asked") {
		t.Errorf("zh command: %q", got)
	}
	old := result{tool: "x", Error: "boom"}
	if got := answer(true, Intent{Kind: "command"}, []result{old}, (Planner{}).commands().tiers); got != "工具 x 执行失败。" {
		t.Errorf("no code: %q", got)
	}
}

// TestFailuresNameFileAndCause: the repros of a new-user walk-through —
// head -c 100 /dev/zero said only "command_executor 执行失败。", grep -r x
// /proc and 下载/etc/passwd only "禁止的命令，或可能含有密钥、口令的文件".
func TestFailuresNameFileAndCause(t *testing.T) {
	tiers := (Planner{}).commands().tiers
	for _, tc := range []struct {
		r      result
		zh, en string
	}{
		{result{tool: "command_executor", code: tools.CodeNotRegular, args: map[string]any{"command": "head", "args": []any{"-c", "100", "/dev/zero"}},
			Error: `pathguard: "/dev/zero" is not a regular file or directory`},
			`"/dev/zero"不是普通文件或目录`, `"/dev/zero" is not a regular file or directory`},
		{result{tool: "command_executor", code: tools.CodeSecretFile, args: map[string]any{"command": "grep", "args": []any{"-r", "x", "/proc"}},
			Error: `call to command_executor denied by policy: "/proc" 可能含有密钥或口令，不会读取，也不会询问。"/proc" may hold secrets and is never read.`},
			`"/proc"可能含有密钥或口令`, `"/proc" may hold secrets`},
		{result{tool: "file_download", code: tools.CodeSecretFile, args: map[string]any{"file_path": "/etc/passwd"}},
			`"/etc/passwd"可能含有密钥或口令`, `"/etc/passwd" may hold secrets`},
		// A generic code keeps the cause, cleaned of package prefixes, in
		// English; a Chinese answer never appends an English reason.
		{result{tool: "command_executor", code: "execution", Error: "command: workspace: disk full"},
			"command_executor 执行失败。", "command_executor failed. Reason: disk full"},
		// cat of a missing file: named in Chinese through its code (it was
		// the parameter text plus the raw English reason).
		{result{tool: "command_executor", code: tools.CodeNotFound, args: map[string]any{"command": "cat", "args": []any{"/tmp/x/nope.txt"}},
			Error: `pathguard: "/tmp/x/nope.txt" does not exist`},
			`"/tmp/x/nope.txt"不存在（command_executor）。`, `"/tmp/x/nope.txt" does not exist`},
		{result{tool: "command_executor", code: "parameter", Error: `pathguard: "/tmp/x/nope.txt" does not exist`},
			"command_executor 的参数有误，或要找的文件不存在。", "Reason: \"/tmp/x/nope.txt\" does not exist"},
		// The policy's two-language reason gives the user's half.
		{result{tool: "x", Error: `call to x denied by policy: 角色 a 不能使用工具 x。Role a may not use the tool x.`},
			"工具 x 执行失败：角色 a 不能使用工具 x。", "x failed: Role a may not use the tool x."},
	} {
		zh := answer(true, Intent{Kind: "command"}, []result{tc.r}, tiers)
		en := answer(false, Intent{Kind: "command"}, []result{tc.r}, tiers)
		if !strings.Contains(zh, tc.zh) || strings.Contains(zh, "pathguard") || strings.Contains(zh, "command:") || regexp.MustCompile(`[a-z]{4,} [a-z]{3,}`).MatchString(zh) {
			t.Errorf("zh: %q, want %q", zh, tc.zh)
		}
		if !strings.Contains(en, tc.en) || regexp.MustCompile(`\p{Han}`).MatchString(en) {
			t.Errorf("en: %q, want %q", en, tc.en)
		}
	}
}

// TestStepMarksRefusal: the step that refuses is marked a refusal, so the
// eval tells it from an answer that understood nothing or gave help
// (review finding 12); no other step is.
func TestStepMarksRefusal(t *testing.T) {
	for _, tc := range []struct {
		input   string
		refusal bool
	}{
		{"rm -rf /", true},
		{"帮我把 nginx 卸载了", true},
		{"please delete the old logs", true},
		{"asdkjh qwe zzz", false},
		{"你能做什么", false},
		{"你好", false},
		{"ls -la", false},
	} {
		st, _, err := plan(t, Planner{}, context.Background(), tc.input)
		if err != nil {
			t.Fatal(err)
		}
		if st.Refusal != tc.refusal {
			t.Errorf("%q: Refusal %v, want %v (step %+v)", tc.input, st.Refusal, tc.refusal, st)
		}
	}
}
