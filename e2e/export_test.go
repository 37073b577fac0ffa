package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/client"
)

// TestExportSameOverBothTransports: a conversation with a tool call and
// an upload exports to the same bytes over NPLT (SESSION_EXPORT) and
// HTTP (GET /api/sessions/{id}/export), in md and in json.
func TestExportSameOverBothTransports(t *testing.T) {
	data := t.TempDir()
	a := startApp(t, data)
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	file := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(file, []byte("port: 5432\n"), 0o600)
	if _, err := conn.Upload(ctx, file, nil); err != nil {
		t.Fatal(err)
	}
	chatOnce(ctx, t, conn, "CPU使用率是多少？")
	id := conn.SessionID()
	web := &client.ToolsAPI{Addr: a.HTTPAddr().String()}
	for _, format := range []string{"md", "json"} {
		overNPLT, err := conn.Export(ctx, id[:8], format)
		if err != nil {
			t.Fatalf("%s over NPLT: %v", format, err)
		}
		overHTTP, err := web.Export(ctx, id, format)
		if err != nil {
			t.Fatalf("%s over HTTP: %v", format, err)
		}
		if !bytes.Equal(overNPLT, overHTTP) {
			t.Fatalf("%s differs:\nNPLT %s\nHTTP %s", format, overNPLT, overHTTP)
		}
		if !strings.Contains(string(overNPLT), "notes.txt") || !strings.Contains(string(overNPLT), "sys_monitor") {
			t.Fatalf("%s export lacks the upload or the tool call: %s", format, overNPLT)
		}
	}
}
