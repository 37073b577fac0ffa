package fileupload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/storage/history"
	"opsassist/tools"
)

// minimalPDF builds a one-page PDF showing text in Helvetica.
func minimalPDF(text string) []byte {
	stream := fmt.Sprintf("BT /F1 18 Tf 72 712 Td (%s) Tj ET", text)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func TestReadPDF(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "report.pdf")
	os.WriteFile(good, minimalPDF("Database port 5432"), 0o600)
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
	os.WriteFile(p, minimalPDF("x"), 0o600)
	ups := []history.Upload{{FileID: "r", Filename: "r.pdf", FilePath: p}}
	if _, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`)); !errors.Is(err, ErrPDFBusy) {
		t.Fatalf("busy: %v", err)
	}
	<-tool.pdfSlot
	if out, err := tool.Run(context.Background(), &tools.Call{Uploads: ups}, json.RawMessage(`{"action":"read"}`)); err != nil || out.(ReadOutput).Content == "" {
		t.Fatalf("after the slot is free: %v", err)
	}
}
