package builtin

import (
	"strings"
	"testing"
)

// TestErrorsQuestionWithoutUpload: "有什么错误？" with nothing uploaded
// says there is no upload and how to give one in any client — the
// REPL's /upload as well as the shell's (it was the "didn't understand"
// help list, then shell commands only), zh and en; about the machine's logs it is not
// this answer.
func TestErrorsQuestionWithoutUpload(t *testing.T) {
	for q, zh := range map[string]bool{"有什么错误？": true, "any errors?": false} {
		in := Planner{}.Classify(q, false)
		if in.Kind != "no_upload" {
			t.Fatalf("%q: kind %s", q, in.Kind)
		}
		got := answer(zh, in, nil, defaultCommands.tiers)
		upload := map[bool]string{true: "opsassist upload 文件", false: "opsassist upload FILE"}[zh]
		if !strings.Contains(got, "/upload ") || !strings.Contains(got, upload) || !strings.Contains(got, "| opsassist ask") || strings.Contains(got, "可以先上传：") || strings.Contains(got, "没能理解") || strings.Contains(got, "didn't understand") {
			t.Errorf("%q: %q", q, got)
		}
		if zh != strings.Contains(got, "还没有上传") {
			t.Errorf("%q language: %q", q, got)
		}
	}
	if in := (Planner{}).Classify("系统日志里有什么错误", false); in.Kind == "no_upload" {
		t.Errorf("system log question: %v", in.Kind)
	}
}
