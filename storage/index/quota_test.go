package index

import (
	"context"
	"errors"
	"strings"
	"testing"

	"opsassist/storage/embed"
)

// TestUploadTextQuota refuses a put that would take a conversation's or
// all uploads' chunk text past its quota, without logging or changing
// anything; a replaced version no longer counts, system documents never
// do, deletes free the text, and a reopened index counts what it loaded.
func TestUploadTextQuota(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	cfg := Config{Embedder: e, MaxUploadTextPerConversation: 100, MaxUploadText: 150}
	x, err := Open(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	text := func(n int) string { return strings.Repeat("disk ", n/5) }
	put := func(id, conv string, n int) error {
		scope := ScopeUploads
		if conv == "" {
			scope = ScopeSystem
		}
		return x.Put(ctx, makeFile(t, e, id, id+".txt", scope, conv, text(n)))
	}
	if err := put("a", "c1", 60); err != nil {
		t.Fatal(err)
	}
	logBefore := x.Stats().LogBytes
	err = put("b", "c1", 50)
	var qe *QuotaError
	if !errors.As(err, &qe) || !errors.Is(err, ErrQuota) || qe.Scope != QuotaConversation || qe.Used != 60 || qe.Need != 50 {
		t.Fatalf("conversation past its quota: %v", err)
	}
	if st := x.Stats(); st.Files != 1 || st.LogBytes != logBefore {
		t.Fatalf("a refused put changed the index: %+v (log was %d)", st, logBefore)
	}
	if !strings.Contains(qe.Reason(), "this conversation") {
		t.Errorf("reason %q", qe.Reason())
	}
	if err := put("a", "c1", 90); err != nil {
		t.Fatalf("replacing a file within the quota: %v", err)
	}
	if err := put("sys", "", 1000); err != nil {
		t.Fatalf("system document: %v", err)
	}
	if err := put("c", "c2", 70); !errors.As(err, &qe) || qe.Scope != QuotaServer || qe.Used != 90 {
		t.Fatalf("uploads past the server quota: %v", err)
	}
	if err := x.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := put("c", "c2", 70); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
	x.Close()
	x = openTest(t, dir, cfg)
	if err := put("d", "c3", 90); !errors.As(err, &qe) || qe.Scope != QuotaServer || qe.Used != 70 {
		t.Fatalf("after reopening: %v", err)
	}
}
