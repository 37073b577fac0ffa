package chat_test

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/storage/index"
	ixr "opsassist/storage/indexer"
)

// TestIndexNoticeIsSafe: UPLOAD_INDEXED's error never carries the
// indexer's raw text (server paths, package prefixes): a read failure is
// a short reason; a skip reason loses its paths. It is in the
// conversation's language, or in both before the user has written.
func TestIndexNoticeIsSafe(t *testing.T) {
	readErr := fmt.Errorf("indexer: a.log: %w", &fs.PathError{Op: "open", Path: "/srv/data/uploads/0b5e/a.log", Err: fs.ErrPermission})
	tests := []struct {
		name    string
		err     error
		said    string // the user's last message; "" = none
		want    []string
		wantNot []string
	}{
		{"read, unknown language", readErr, "", []string{"未建立索引：服务器无法读取", "not indexed: the stored file could not be read"}, nil},
		{"read, zh", readErr, "帮我看看这个日志", []string{"未建立索引：服务器无法读取"}, []string{"not indexed"}},
		{"read, en", readErr, "look at this log", []string{"not indexed: the stored file could not be read"}, []string{"未建立索引"}},
		{"other, en", fmt.Errorf("index: embedding via http://10.0.0.5:8080/v1: %w", context.DeadlineExceeded), "hi", []string{"not indexed: indexing failed on the server"}, []string{"10.0.0.5"}},
		{"skip with a path, zh", &ixr.SkipError{Reason: "unreadable PDF: open /srv/data/uploads/x/a.pdf: bad xref"}, "看看", []string{"未建立索引：无法读取的 PDF（open a.pdf", "bad xref"}, nil},
		{"text quota, zh", quotaSkip, "看看", []string{"未建立索引：超出索引文本配额：本会话的上传文件已有 0 B 索引文本，上限 29.3 KiB，这个文件需要 40.0 KiB"}, []string{"conversation's", "MiB"}},
		{"text quota, en", quotaSkip, "look", []string{"not indexed: over the indexed-text quota: this conversation's uploads have 0 B of indexed text, limit 29.3 KiB, and this file needs 40.0 KiB"}, []string{"0.0 MiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newService(t, scripted{}, testkit.FailingIndexer{Err: tt.err})
			se := s.NewSession("cli", chat.Local())
			if tt.said != "" {
				if err := chat.CurrentConversation(se).Append(history.Message{Role: "user", Content: tt.said}); err != nil {
					t.Fatal(err)
				}
			}
			got := make(chan chat.IndexNotice, 1)
			se.SetIndexNotify(func(n chat.IndexNotice) { got <- n })
			p, err := se.BeginUpload("a.log", 1, "")
			if err != nil {
				t.Fatal(err)
			}
			p.Write([]byte("x"))
			if _, err := se.CommitUpload(p, nil); err != nil {
				t.Fatal(err)
			}
			n := <-got
			if n.Indexed || strings.Contains(n.Error, "/srv") || strings.Contains(n.Error, "indexer:") || strings.Contains(n.Error, "permission denied") {
				t.Fatalf("notice %+v leaks the indexer's error", n)
			}
			for _, w := range tt.want {
				if !strings.Contains(n.Error, w) {
					t.Errorf("notice %q, want it to say %q", n.Error, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(n.Error, w) {
					t.Errorf("notice %q, want it not to say %q", n.Error, w)
				}
			}
		})
	}
}

// quotaSkip is the indexer's refusal of an upload over the indexed-text
// quota, as storage/indexer gives it.
var quotaSkip = func() error {
	qe := &index.QuotaError{Scope: index.QuotaConversation, Limit: 30000, Used: 0, Need: 41000}
	return &ixr.SkipError{Reason: qe.Reason(), Err: qe}
}()
