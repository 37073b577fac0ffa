package tools

import (
	"strings"
	"testing"
)

func TestOneLanguage(t *testing.T) {
	for _, tc := range []struct{ in, zh, en string }{
		{"文件太大：150 MiB。 File too large: 150 MiB.", "文件太大：150 MiB。", "File too large: 150 MiB."},
		{"超出配额。The quota is used up.", "超出配额。", "The quota is used up."},
		{"只有中文。", "只有中文。", "只有中文。"},
		{"English only.", "English only.", "English only."},
	} {
		if got := OneLanguage(true, tc.in); got != tc.zh {
			t.Errorf("zh %q = %q, want %q", tc.in, got, tc.zh)
		}
		if got := OneLanguage(false, tc.in); got != tc.en {
			t.Errorf("en %q = %q, want %q", tc.in, got, tc.en)
		}
	}
}

// TestFailureTextNamesTheFile: a refusal about a file is said from its
// code, naming the file, without the registry's wording.
func TestFailureTextNamesTheFile(t *testing.T) {
	err := `call to file_reader denied by policy: pathguard: "/etc/shadow" 可能含有密钥。"/etc/shadow" may hold secrets.`
	if got, want := FailureText(false, CodeSecretFile, "file_reader", err, nil), `"/etc/shadow" may hold secrets, so it is never read (file_reader).`; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
	if got := FailureText(true, "", "x", "", nil); got != "工具 x 执行失败。" {
		t.Errorf("no code, no error: %q", got)
	}
}

// TestSplitWithChineseInTheEnglishHalf: a text in both languages whose
// English half quotes a Chinese file name is still split; stacked
// package prefixes are stripped in one pass, however many.
func TestSplitWithChineseInTheEnglishHalf(t *testing.T) {
	s := "文件太大：报告.pdf 有 200 MiB。 File too large: 报告.pdf has 200 MiB."
	if got := OneLanguage(true, s); got != "文件太大：报告.pdf 有 200 MiB。" {
		t.Errorf("zh: %q", got)
	}
	if got := OneLanguage(false, s); got != "File too large: 报告.pdf has 200 MiB." {
		t.Errorf("en: %q", got)
	}
	if got := CleanReason(false, "tools: "+s); got != "File too large: 报告.pdf has 200 MiB." {
		t.Errorf("CleanReason en: %q", got)
	}
	if got := CleanReason(false, strings.Repeat("a: ", 20000)+"x"); got != "x" {
		t.Errorf("stacked prefixes: %q", got[:min(len(got), 40)])
	}
}

// TestFailureTextNoUploads: asking about "this file" with nothing
// uploaded said only "file_upload 执行失败。"; it says what to do, and no
// text a user reads starts with a tool's name.
func TestFailureTextNoUploads(t *testing.T) {
	err := "no files have been uploaded in this conversation"
	zh := FailureText(true, CodeNoUploads, "file_upload", err, nil)
	if !strings.Contains(zh, "还没有上传文件") || !strings.Contains(zh, "opsassist upload") || !strings.Contains(zh, "/upload") || strings.Contains(zh, "file_upload") {
		t.Errorf("zh: %q", zh)
	}
	en := FailureText(false, CodeNoUploads, "file_upload", err, nil)
	if !strings.Contains(en, "No file has been uploaded") || !strings.Contains(en, "opsassist upload") || strings.Contains(en, "file_upload") {
		t.Errorf("en: %q", en)
	}
	// The texts about a file or command name it, not the tool.
	for code := range subjectless {
		for _, zh := range []bool{true, false} {
			if s := UserTextAbout(code, "some_tool", "/x", zh); strings.HasPrefix(s, "some_tool") || strings.Contains(s, "some_tool 不会") || strings.Contains(s, "so some_tool") {
				t.Errorf("%s (zh %v) names the tool as its actor: %q", code, zh, s)
			}
		}
	}
}
