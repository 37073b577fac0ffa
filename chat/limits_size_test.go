package chat

import (
	"strings"
	"testing"
)

// TestMessageTooLargeSizes: the refusal quotes sizes readably, in the
// user's language.
func TestMessageTooLargeSizes(t *testing.T) {
	zh := CheckMessage(strings.Repeat("长", MaxMessage/3+1)).Error()
	if !strings.Contains(zh, "上限是 64 KiB") || strings.Contains(zh, "字节") {
		t.Errorf("zh: %q", zh)
	}
	en := CheckMessage(strings.Repeat("a", 80000)).Error()
	if !strings.Contains(en, "message too long: 78.1 KiB, the limit is 64 KiB") {
		t.Errorf("en: %q", en)
	}
}
