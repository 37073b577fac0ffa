package fileupload

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/storage/history"
	"opsassist/tools"

	"opsassist/internal/testpdf"
)

func TestReadPDF(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "report.pdf")
	os.WriteFile(good, testpdf.Minimal("Database port 5432"), 0o600)
	bad := filepath.Join(dir, "broken.pdf")
	os.WriteFile(bad, []byte("%PDF-1.4\ngarbage"), 0o600)
	ups := []history.Upload{{FileID: "b", Filename: "broken.pdf", FilePath: bad}, {FileID: "g", Filename: "report.pdf", FilePath: good}}
	tool := New(nil, 0)
	out, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read","reference":"this"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(ReadOutput).Content; !strings.Contains(got, "Database port 5432") {
		t.Fatalf("PDF text %q", got)
	}
	if _, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read","file_id":"b"}`)); err == nil || !strings.Contains(err.Error(), "unreadable PDF") {
		t.Fatalf("broken PDF: %v", err)
	}
}

func TestPDFReadIsBoundedByContext(t *testing.T) {
	tool := New(nil, 0)
	tool.pdfSlot <- struct{}{} // an extraction that never ends holds the slot
	dir := t.TempDir()
	p := filepath.Join(dir, "r.pdf")
	os.WriteFile(p, testpdf.Minimal("x"), 0o600)
	ups := []history.Upload{{FileID: "r", Filename: "r.pdf", FilePath: p}}
	if _, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`)); !errors.Is(err, ErrPDFBusy) {
		t.Fatalf("busy: %v", err)
	}
	<-tool.pdfSlot
	if out, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`)); err != nil || out.(ReadOutput).Content == "" {
		t.Fatalf("after the slot is free: %v", err)
	}
}
