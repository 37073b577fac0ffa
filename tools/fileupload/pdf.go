package fileupload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"opsassist/storage/ingest"
)

// isPDF reports whether the file starts with the PDF signature.
func isPDF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 5)
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], []byte("%PDF-"))
}

// ErrPDFBusy is returned while an earlier PDF extraction is still running.
var ErrPDFBusy = errors.New("another PDF is still being read; try again later")

// readPDF extracts a PDF's text off the caller's goroutine, so a hostile
// file that makes the parser loop cannot hold the turn past its context:
// the call returns when ctx ends. The extraction itself cannot be
// stopped, so only one runs at a time; until a runaway one ends, PDF reads
// answer ErrPDFBusy.
func (t *Tool) readPDF(ctx context.Context, path string) (string, bool, error) {
	select {
	case t.pdfSlot <- struct{}{}:
	default:
		return "", false, ErrPDFBusy
	}
	type result struct {
		text      string
		truncated bool
		err       error
	}
	done := make(chan result, 1)
	go func() {
		text, truncated, err := pdfText(path, t.budget)
		<-t.pdfSlot // free before answering, so the next read finds it free
		done <- result{text, truncated, err}
	}()
	select {
	case r := <-done:
		return r.text, r.truncated, r.err
	case <-ctx.Done():
		return "", false, fmt.Errorf("reading the PDF took too long: %w", ctx.Err())
	}
}

// pdfText extracts up to budget bytes of a PDF's plain text through the
// ingest package's extractor.
func pdfText(path string, budget int) (string, bool, error) {
	text, err := ingest.PDFText(path, int64(budget)+1)
	if err != nil {
		var skip *ingest.SkipError
		if errors.As(err, &skip) {
			return "", false, errors.New(skip.Reason)
		}
		return "", false, err
	}
	return cutRunes([]byte(text), budget)
}
