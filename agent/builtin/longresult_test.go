package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/storage/history"
)

// TestLongUploadIsReadWhole: a log longer than the model's view of a
// tool result (16 KiB) is answered from the whole result. The planner
// read the cut view — head and tail of the result's JSON text, which no
// longer parses — and printed it, escaped content, server path and all,
// as the answer.
func TestLongUploadIsReadWhole(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 800 {
		fmt.Fprintf(&b, "2026-11-24 10:%02d:%02d INFO request %d served in 12ms\n", i/60%60, i%60, i)
		if i == 400 {
			b.WriteString("2026-11-24 10:05:00 ERROR payment gateway timeout after 30s\n")
		}
	}
	p := filepath.Join(dir, "app.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 32<<10 {
		t.Fatalf("fixture only %d bytes", b.Len())
	}
	ups := []history.Upload{{FileID: "f1", Filename: "app.log", FilePath: p, UploadedAt: time.Now(), Size: int64(b.Len())}}
	a := newAgent(t, dir)
	for _, q := range []string{"这个日志里有什么错误？", "any errors in this log?"} {
		r, msgs := ask(t, a, q, ups)
		got := r.text.String()
		if strings.Contains(got, "file_id") || strings.Contains(got, `\"`) || strings.Contains(got, dir) {
			t.Errorf("%q: the answer shows the raw result: %.300q", q, got)
		}
		if !strings.Contains(got, "payment gateway timeout") {
			t.Errorf("%q: the error in the middle of the log is not named: %.300q", q, got)
		}
		cut := false
		for _, m := range msgs {
			cut = cut || m.Full != ""
		}
		if !cut {
			t.Errorf("%q: the result was not long enough to be cut for the model", q)
		}
	}
}
