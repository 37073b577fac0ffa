package builtin

import (
	"strings"
	"testing"
)

// TestDescribeSearchNoRelevant: hits all under the relevance floor are
// reported as nothing relevant, with a hint, in the user's language; a
// plain empty result keeps its old text.
func TestDescribeSearchNoRelevant(t *testing.T) {
	raw := []byte(`{"total":0,"results":[],"status":"no_relevant","message":"…"}`)
	if got := describeSearch(true, raw); !strings.HasPrefix(got, "没有找到足够相关的内容。") || !strings.Contains(got, "关键词") || strings.Contains(got, "找到 0") {
		t.Errorf("zh: %q", got)
	}
	if got := describeSearch(false, raw); !strings.HasPrefix(got, "Nothing relevant enough was found.") || !strings.Contains(got, "file name") {
		t.Errorf("en: %q", got)
	}
	if got := describeSearch(true, []byte(`{"total":0,"results":[]}`)); got != "没有找到相关内容。" {
		t.Errorf("empty: %q", got)
	}
}
