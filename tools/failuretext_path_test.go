package tools

import (
	"strings"
	"testing"
)

// TestFailureTextPathNotChinese: an English reason that quotes a path
// in Chinese is English — a Chinese answer says the generic sentence,
// not the English reason — and an English answer keeps it, the path
// whole.
func TestFailureTextPathNotChinese(t *testing.T) {
	reason := `pathguard: "/srv/資料外/記錄.log" is outside the directories the assistant may read`
	zh := FailureText(true, string(ClassExecution), "command_executor", reason, nil)
	if zh != "command_executor 执行失败。" {
		t.Errorf("zh: %q", zh)
	}
	if d := FailureDetail(true, string(ClassExecution), reason); !strings.Contains(d, `"/srv/資料外/記錄.log" is outside`) {
		t.Errorf("zh detail: %q", d)
	}
	en := FailureText(false, string(ClassExecution), "command_executor", reason, nil)
	if !strings.Contains(en, `"/srv/資料外/記錄.log" is outside the directories`) {
		t.Errorf("en: %q", en)
	}
}
