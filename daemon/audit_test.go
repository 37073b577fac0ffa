package daemon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/tools"
	"opsassist/tools/audit"
)

// writeAudit writes n records to data/audit and returns its last file.
func writeAudit(t *testing.T, data string, n int) string {
	t.Helper()
	l, err := audit.Open(filepath.Join(data, audit.DirName), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := l.Record(tools.CallRecord{User: "alice", Tool: "command_executor", Args: json.RawMessage(`{}`), Status: tools.StatusOK}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(data, audit.DirName, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no log files: %v", err)
	}
	return files[len(files)-1]
}

func TestStartReportsAuditLog(t *testing.T) {
	data := t.TempDir()
	writeAudit(t, data, 3)
	head, err := os.ReadFile(filepath.Join(data, audit.DirName, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	var h struct{ Hash string }
	if err := json.Unmarshal(head, &h); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.InfoLevel)
	a, err := New(testConfig(data), zap.New(core))
	if err != nil {
		t.Fatal(err)
	}
	defer stop(t, a)
	opened := logs.FilterMessage("audit log opened").All()
	if len(opened) != 1 {
		t.Fatalf("the daemon did not report its audit log: %v", logs.All())
	}
	f := opened[0].ContextMap()
	if f["dir"] != filepath.Join(data, audit.DirName) || f["last_seq"] != int64(3) || f["head_hash"] != h.Hash {
		t.Errorf("audit log opened %v, want its directory, record 3 and HEAD's hash %s", f, h.Hash)
	}
}

func TestStartRefusesCutAuditLog(t *testing.T) {
	data := t.TempDir()
	last := writeAudit(t, data, 3)
	b, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	// Bytes cut from the last record while HEAD names it.
	if err := os.WriteFile(last, b[:len(b)-5], 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = New(testConfig(data), zap.NewNop())
	if err == nil {
		t.Fatal("the daemon started on an audit log cut at its end")
	}
	msg := err.Error()
	if n := strings.Count(msg, "opsassist audit verify"); n != 1 || !strings.Contains(msg, "HEAD names record 3") {
		t.Errorf("refusal %q: want the damage and the advice once (%d)", msg, n)
	}
	if after, _ := os.ReadFile(last); string(after) != string(b[:len(b)-5]) {
		t.Error("the refused log was changed")
	}
}
