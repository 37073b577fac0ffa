package npltserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPublishedClientCompat runs a client written only from the published
// NPLT v2 description (Node.js, standard library only) against the server:
// it must read the greeting, chat with a streamed reply, and upload.
func TestPublishedClientCompat(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is required in CI for the compatibility test")
		}
		t.Skip("node not installed")
	}
	ts := startServer(t, "")
	file := filepath.Join(t.TempDir(), "app.log")
	content := bytes.Repeat([]byte("2026-11-22 ERROR db timeout\n"), 5000) // 140 KB: several FILE_DATA frames
	if err := os.WriteFile(file, content, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "testdata/compat/nplt_v2_client.mjs", ts.addr, file).CombinedOutput()
	if err != nil {
		t.Fatalf("client failed: %v\n%s", err, out)
	}
	var res struct {
		OK       bool   `json:"ok"`
		Greeting string `json:"greeting"`
		Reply    struct {
			Started  bool     `json:"started"`
			Statuses []string `json:"statuses"`
			Text     string   `json:"text"`
		} `json:"reply"`
		Upload string `json:"upload"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if !res.OK || !strings.Contains(res.Greeting, "opsassist") || !res.Reply.Started || len(res.Reply.Statuses) == 0 ||
		!strings.Contains(res.Reply.Text, "系统资源使用情况如何？") || !strings.Contains(res.Upload, "app.log") || !strings.Contains(res.Upload, "file_id") {
		t.Fatalf("published client saw %+v", res)
	}
	committed, _ := uploadEntries(t, ts.dataDir)
	if len(committed) != 1 {
		t.Fatalf("uploads %v", committed)
	}
	got, _ := os.ReadFile(filepath.Join(ts.dataDir, "uploads", committed[0], "app.log"))
	if !bytes.Equal(got, content) {
		t.Fatal("uploaded bytes differ")
	}
}
