package fileupload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"opsassist/storage/ingest"
	"opsassist/tools/pathguard"
)

// isPDF reports whether the file starts with the PDF signature.
func isPDF(f *os.File) bool {
	head := make([]byte, 5)
	n, _ := f.ReadAt(head, 0)
	return bytes.Equal(head[:n], []byte("%PDF-"))
}

// ErrPDFBusy is returned while an earlier PDF extraction is still running.
var ErrPDFBusy = errors.New("another PDF is still being read; try again later")

// readPDF extracts a PDF's text off the caller's goroutine, so a hostile
// file that makes the parser loop cannot hold the turn past its context:
// the call returns when ctx ends. The extraction itself cannot be
// stopped, so only one runs at a time; until a runaway one ends, PDF reads
// answer ErrPDFBusy.
//
// f is the upload, opened and checked by openUpload; readPDF closes it
// when the extraction ends. The extractor opens it again through
// pathguard.FDPath, which reaches the very file opened whatever its name
// leads to by then.
func (t *Tool) readPDF(ctx context.Context, f *os.File) (string, bool, error) {
	select {
	case t.pdfSlot <- struct{}{}:
	default:
		f.Close()
		return "", false, ErrPDFBusy
	}
	type result struct {
		text      string
		truncated bool
		err       error
	}
	done := make(chan result, 1)
	go func() {
		text, truncated, err := pdfText(pathguard.FDPath(int(f.Fd())), t.budget)
		f.Close()
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
