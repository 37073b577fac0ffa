package chat

import (
	"errors"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
)

// TestExportRefusals: an unknown format is bad_request and an export
// over MaxExport too_large, each in the conversation's language.
func TestExportRefusals(t *testing.T) {
	sum := history.Summary{ID: "0123456789", CreatedAt: time.Unix(0, 0)}
	zh := []history.Message{{Role: "user", Content: "你好"}}
	_, err := Export(sum, zh, nil, "pdf")
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != api.CodeBadRequest || !strings.Contains(err.Error(), "导出格式") {
		t.Fatalf("pdf: %v", err)
	}
	big := []history.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: strings.Repeat("x", MaxExport)}}
	for _, f := range []string{ExportMarkdown, ExportJSON} {
		_, err = Export(sum, big, nil, f)
		if !errors.As(err, &ce) || ce.Code != api.CodeTooLarge || !strings.Contains(err.Error(), "32 MiB") {
			t.Fatalf("%s: %v", f, err)
		}
	}
	b, err := Export(sum, nil, nil, ExportJSON)
	if err != nil || !strings.HasPrefix(string(b), `{"messages":[],"session":`) || !strings.HasSuffix(string(b), "\"uploads\":[]}\n") {
		t.Fatalf("%s %v", b, err)
	}
}
