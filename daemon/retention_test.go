package daemon

import (
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/chat"
	"opsassist/storage/history"
)

// TestRetentionRunsAtStart: with retention.drop_empty set, a daemon
// deletes the conversations without a user message when it starts (the
// first run always completes before Shutdown returns) and keeps the
// others.
func TestRetentionRunsAtStart(t *testing.T) {
	data := t.TempDir()
	h, err := history.Open(filepath.Join(data, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	empty := h.NewOwned(now, chat.LocalID)
	empty.Append(history.Message{Role: "assistant", Content: "hello", Time: now})
	kept := h.NewOwned(now, chat.LocalID)
	kept.Append(history.Message{Role: "user", Content: "disk?", Time: now})

	cfg := testConfig(data)
	cfg.Search.DocRoots = nil
	cfg.Retention.DropEmpty = true
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	stop(t, a)

	h2, err := history.Open(filepath.Join(data, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	list := h2.List()
	if len(list) != 1 || list[0].ID != kept.ID() {
		t.Fatalf("left %+v", list)
	}
}
