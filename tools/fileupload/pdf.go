package fileupload

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/ledongthuc/pdf"
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

// pdfText extracts up to budget bytes of a PDF's plain text, pure Go.
func pdfText(path string, budget int) (text string, truncated bool, err error) {
	defer func() {
		// The parser panics on some malformed files; a bad upload must not
		// take the session down.
		if p := recover(); p != nil {
			err = fmt.Errorf("unreadable PDF: %v", p)
		}
	}()
	f, r, err := pdf.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("unreadable PDF: %w", err)
	}
	defer f.Close()
	rd, err := r.GetPlainText()
	if err != nil {
		return "", false, fmt.Errorf("unreadable PDF: %w", err)
	}
	buf := make([]byte, budget+1)
	n, err := io.ReadFull(rd, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", false, err
	}
	return cutRunes(buf[:n], budget)
}
