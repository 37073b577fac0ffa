package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/testpdf"
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		max      int64
		kind     string
		contains string
		skip     string // reason prefix when a *SkipError is expected
	}{
		{name: "guide.md", data: []byte("# 运维手册\n\n## 数据库配置\nport: 5432\n"), kind: KindMarkdown, contains: "## 数据库配置"},
		{name: "app.yaml", data: []byte("db:\n  host: 10.0.0.1\n"), kind: KindConfig, contains: "host: 10.0.0.1"},
		{name: "app.json", data: []byte(`{"port": 8080}`), kind: KindConfig, contains: `"port"`},
		{name: "my.ini", data: []byte("[mysqld]\nmax_connections=500\n"), kind: KindConfig, contains: "max_connections"},
		{name: "Cargo.TOML", data: []byte("[package]\nname = \"x\"\n"), kind: KindConfig, contains: "[package]"},
		{name: "nginx.conf", data: []byte("worker_processes 4;\n"), kind: KindConfig, contains: "worker_processes"},
		{name: "app.log", data: []byte("2024-01-01 ERROR 连接超时\n"), kind: KindLog, contains: "连接超时"},
		{name: "hosts.csv", data: []byte("host,ip\nweb1,10.0.0.2\n"), kind: KindCSV, contains: "web1,10.0.0.2"},
		{name: "main.go", data: []byte("package main\n\nfunc main() {}\n"), kind: KindCode, contains: "func main"},
		{name: "notes.txt", data: []byte("\uFEFF重启服务前先备份\n"), kind: KindText, contains: "重启服务前先备份"},
		{name: "latin1.txt", data: []byte("caf\xe9\n"), kind: KindText, contains: "caf\uFFFD"},
		{name: "README", data: []byte("plain text without extension\n"), kind: KindText, contains: "without extension"},
		{name: "report.pdf", data: testpdf.Minimal("Database port 5432"), kind: KindPDF, contains: "Database port 5432"},
		{name: "broken.pdf", data: []byte("%PDF-1.4\ngarbage"), skip: "unreadable PDF"},
		{name: "blob", data: []byte{0x7f, 'E', 'L', 'F', 0, 0, 1}, skip: "binary file"},
		{name: "blob2", data: []byte{0xff, 0xfe, 0xfd}, skip: "binary file"},
		{name: "nul.txt", data: []byte("a\x00b"), skip: "binary file"},
		{name: "spec.docx", data: []byte("PK\x03\x04"), skip: "unsupported type .docx"},
		{name: "big.txt", data: bytes.Repeat([]byte("x"), 100), max: 99, skip: "too large"},
		{name: "fits.txt", data: bytes.Repeat([]byte("x"), 99), max: 99, kind: KindText, contains: "xxx"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, dir, tt.name, tt.data)
			doc, err := Extract(context.Background(), p, tt.max)
			if tt.skip != "" {
				var se *SkipError
				if !errors.As(err, &se) || !strings.HasPrefix(se.Reason, tt.skip) {
					t.Fatalf("got %v, want skip %q", err, tt.skip)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Kind != tt.kind || !strings.Contains(doc.Text, tt.contains) {
				t.Fatalf("got %q %q, want kind %q containing %q", doc.Kind, doc.Text, tt.kind, tt.contains)
			}
			if strings.HasPrefix(doc.Text, "\uFEFF") {
				t.Fatal("BOM kept")
			}
		})
	}
}

func TestExtractErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Extract(context.Background(), filepath.Join(dir, "missing.txt"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	var se *SkipError
	if _, err := Extract(context.Background(), dir, 0); !errors.As(err, &se) {
		t.Fatalf("directory: %v", err)
	}
	p := writeFile(t, dir, "r.pdf", testpdf.Minimal("x"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, p, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestReadPDFHonoursContext checks that readPDF returns when ctx ends even
// while an extraction is still running.
func TestReadPDFHonoursContext(t *testing.T) {
	p := writeFile(t, t.TempDir(), "r.pdf", testpdf.Minimal("slow"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The goroutine may finish first; either outcome is valid, but a
	// cancelled ctx must never block the caller.
	if _, err := readPDF(ctx, p, 1<<20); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("readPDF: %v", err)
	}
}
