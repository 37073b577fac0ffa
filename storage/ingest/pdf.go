package ingest

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// readPDF extracts a PDF's plain text off the caller's goroutine so that
// a hostile file that makes the parser loop cannot hold the caller past
// ctx: it returns ctx's error when ctx ends. The extraction itself cannot
// be interrupted; its goroutine exits when the parser returns, and its
// result is then dropped.
func readPDF(ctx context.Context, path string, budget int64) (string, error) {
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1) // buffered: an abandoned extraction never blocks
	go func() {
		text, err := PDFText(path, budget)
		done <- result{text, err}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-ctx.Done():
		return "", fmt.Errorf("ingest: reading PDF: %w", ctx.Err())
	}
}

// PDFText extracts up to budget bytes of a PDF's plain text, pure Go. A
// file the parser rejects or panics on yields a *SkipError. It cannot be
// interrupted: callers that must not wait on a hostile file run it on a
// goroutine of their own, as readPDF does.
func PDFText(path string, budget int64) (text string, err error) {
	defer func() {
		// The parser panics on some malformed files; one bad file must not
		// take the process down.
		if p := recover(); p != nil {
			text, err = "", &SkipError{Reason: fmt.Sprintf("unreadable PDF: %v", p)}
		}
	}()
	f, r, err := pdf.Open(path)
	if err != nil {
		return "", &SkipError{Reason: "unreadable PDF: " + err.Error()}
	}
	defer f.Close()
	rd, err := r.GetPlainText()
	if err != nil {
		return "", &SkipError{Reason: "unreadable PDF: " + err.Error()}
	}
	b, err := io.ReadAll(io.LimitReader(rd, budget))
	if err != nil {
		return "", fmt.Errorf("ingest: reading PDF text: %w", err)
	}
	// A rune cut in half by the budget becomes U+FFFD.
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}
