package tools

import (
	"testing"

	"opsassist/api"
)

// TestGeneratingStatusInBothLanguages: the web page in English showed
// "正在生成回复" among English status lines — the generating status had
// no content_zh/content_en; it has them now, from api's one text.
func TestGeneratingStatusInBothLanguages(t *testing.T) {
	for _, content := range []string{"正在生成回复", "writing the answer"} {
		got, ok := StatusTexts(api.StatusGenerating, content)
		if !ok || got.Zh != "正在生成回复" || got.En != "writing the answer" {
			t.Errorf("%q: %+v %v", content, got, ok)
		}
	}
	if _, ok := StatusTexts(api.StatusGenerating, "something else"); ok {
		t.Error("an unknown generating text was translated")
	}
}
