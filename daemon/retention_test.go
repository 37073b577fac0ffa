package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

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

// TestRetentionReloaded: a running daemon started with retention off
// applies retention.max_conversations when its config file changes —
// no restart — and says so in the log, not as a key needing a restart.
func TestRetentionReloaded(t *testing.T) {
	data := t.TempDir()
	h, err := history.Open(filepath.Join(data, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	older := h.NewOwned(now.Add(-time.Hour), chat.LocalID)
	older.Append(history.Message{Role: "user", Content: "old", Time: now.Add(-time.Hour)})
	newer := h.NewOwned(now, chat.LocalID)
	newer.Append(history.Message{Role: "user", Content: "new", Time: now})

	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	if err := os.WriteFile(file, []byte("retention: {drop_empty: false}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(data)
	cfg.Search.DocRoots = nil
	cfg.File = file
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.InfoLevel)
	a, err := New(cfg, zap.New(core))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	defer stop(t, a)
	if n := len(a.chat.List(chat.Local())); n != 2 {
		t.Fatalf("%d conversations before the change", n)
	}
	if err := os.WriteFile(file, []byte("retention: {max_conversations: 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a.conf.reload() // what the file watcher calls on the change
	deadline := time.Now().Add(10 * time.Second)
	for len(a.chat.List(chat.Local())) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("retention not applied: %+v", a.chat.List(chat.Local()))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if l := a.chat.List(chat.Local()); l[0].ID != newer.ID() {
		t.Fatalf("kept %+v", l)
	}
	if logs.FilterMessage("retention applied").Len() != 1 {
		t.Fatalf("logs %v", logs.All())
	}
	for _, e := range logs.All() {
		if strings.HasPrefix(e.Message, "restart to apply") {
			t.Fatalf("retention named as needing a restart: %s", e.Message)
		}
	}
}
