package chat_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	ixr "opsassist/storage/indexer"
	"opsassist/storage/uploads"
)

// TestConversationUploadQuota refuses uploads past a conversation's
// quota: a declared size at BeginUpload, before anything is stored; a
// streamed upload at CommitUpload, keeping neither its file nor a history
// record. Another conversation has its own quota.
func TestConversationUploadQuota(t *testing.T) {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	up, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := chat.New(chat.Config{History: h, Uploads: up, Agent: scripted{}, MaxUploadBytesPerConversation: 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	se := s.NewSession("cli", chat.Local())
	upload := func(se *chat.Session, n int) error {
		p, err := se.BeginUpload("f.txt", int64(n), "")
		if err != nil {
			return err
		}
		p.Write(make([]byte, n))
		_, err = se.CommitUpload(p, nil)
		return err
	}
	if err := upload(se, 60); err != nil {
		t.Fatal(err)
	}
	var qe *uploads.QuotaError
	if err := upload(se, 50); !errors.As(err, &qe) || qe.Scope != uploads.QuotaConversation || qe.Used != 60 {
		t.Fatalf("declared upload past the quota: %v", err)
	}
	// A streamed upload is refused when it is committed.
	p, err := s.BeginStreamUpload("g.txt")
	if err != nil {
		t.Fatal(err)
	}
	p.Write(make([]byte, 50))
	p.End()
	if _, err := se.CommitUpload(p, nil); !errors.Is(err, uploads.ErrQuota) {
		t.Fatalf("streamed upload past the quota: %v", err)
	}
	if _, ups := se.History(); len(ups) != 1 {
		t.Fatalf("%d uploads recorded, want 1", len(ups))
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "uploads"))
	tmps, _ := os.ReadDir(filepath.Join(dir, "uploads", ".tmp"))
	if len(ents) != 2 || len(tmps) != 0 { // .tmp and the one upload
		t.Fatalf("uploads dir holds %d entries, temp %d; want 2 and 0", len(ents), len(tmps))
	}
	if err := upload(se, 40); err != nil {
		t.Fatalf("upload up to the quota: %v", err)
	}
	if err := upload(s.NewSession("cli", chat.Local()), 100); err != nil {
		t.Fatalf("another conversation: %v", err)
	}
}

// TestIndexNoticeSaysWhy: an upload that is not indexed is announced
// with its reason, without the indexer's package prefix.
func TestIndexNoticeSaysWhy(t *testing.T) {
	s := newService(t, scripted{}, testkit.FailingIndexer{Err: &ixr.SkipError{Reason: "over the indexed-text quota"}})
	se := s.NewSession("cli", chat.Local())
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
	if n.Indexed || n.Error != "未建立索引：超出索引文本配额。not indexed: over the indexed-text quota" {
		t.Fatalf("notice %+v", n)
	}
}
