package ingest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"opsassist/internal/bytesize"
)

// Document kinds reported in Doc.Kind.
const (
	KindText     = "text"
	KindMarkdown = "markdown"
	KindConfig   = "config"
	KindLog      = "log"
	KindCSV      = "csv"
	KindCode     = "code"
	KindPDF      = "pdf"
)

// DefaultMaxBytes is the size limit Extract applies when maxBytes ≤ 0.
const DefaultMaxBytes = 10 << 20

// Doc is the text extracted from one file.
type Doc struct {
	// Kind is one of the Kind constants.
	Kind string
	// Text is the file's text as valid UTF-8.
	Text string
}

// kindByExt maps a lower-case file extension to its document kind.
var kindByExt = map[string]string{
	".txt": KindText, ".text": KindText,
	".md": KindMarkdown, ".markdown": KindMarkdown,
	".yaml": KindConfig, ".yml": KindConfig, ".json": KindConfig, ".ini": KindConfig,
	".toml": KindConfig, ".conf": KindConfig, ".cfg": KindConfig, ".cnf": KindConfig,
	".properties": KindConfig, ".env": KindConfig, ".xml": KindConfig,
	".log": KindLog, ".out": KindLog,
	".csv": KindCSV, ".tsv": KindCSV,
	".go": KindCode, ".py": KindCode, ".js": KindCode, ".ts": KindCode, ".java": KindCode,
	".c": KindCode, ".h": KindCode, ".cc": KindCode, ".cpp": KindCode, ".hpp": KindCode,
	".rs": KindCode, ".rb": KindCode, ".php": KindCode, ".sh": KindCode, ".bash": KindCode,
	".sql": KindCode, ".lua": KindCode, ".pl": KindCode, ".kt": KindCode, ".swift": KindCode,
	".cs": KindCode, ".scala": KindCode, ".ps1": KindCode,
	".pdf": KindPDF,
}

// Extract reads the file at path and returns its text. The kind comes
// from the extension; a file without one is text if it is valid UTF-8
// without NUL bytes. Files larger than maxBytes (DefaultMaxBytes when
// maxBytes ≤ 0), binary files and unsupported types yield a *SkipError.
// Invalid UTF-8 in a file of a known text kind is replaced by U+FFFD.
func Extract(ctx context.Context, path string, maxBytes int64) (Doc, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if err := ctx.Err(); err != nil {
		return Doc{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Doc{}, fmt.Errorf("ingest: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Doc{}, &SkipError{Reason: "not a regular file"}
	}
	if fi.Size() > maxBytes {
		return Doc{}, tooLarge(fi.Size(), maxBytes)
	}
	ext := strings.ToLower(filepath.Ext(path))
	kind, known := kindByExt[ext]
	if ext != "" && !known {
		return Doc{}, &SkipError{Reason: "unsupported type " + ext}
	}
	if kind == KindPDF {
		text, err := readPDF(ctx, path, maxBytes)
		if err != nil {
			return Doc{}, err
		}
		return Doc{Kind: KindPDF, Text: text}, nil
	}
	b, err := readLimited(path, fi.Size(), maxBytes)
	if err != nil {
		return Doc{}, err
	}
	if strings.IndexByte(b, 0) >= 0 {
		return Doc{}, &SkipError{Reason: "binary file"}
	}
	if !known {
		if !utf8.ValidString(b) {
			return Doc{}, &SkipError{Reason: "binary file"}
		}
		kind = KindText
	}
	b = strings.TrimPrefix(b, "\uFEFF")
	// ToValidUTF8 returns valid text as it is, without a copy.
	return Doc{Kind: kind, Text: strings.ToValidUTF8(b, "\uFFFD")}, nil
}

// readLimited reads the whole file into one string of the size it had
// when checked (no growing buffer, no copy from bytes to string),
// refusing one that has grown past max since.
func readLimited(path string, size, max int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("ingest: %w", err)
	}
	defer f.Close()
	var sb strings.Builder
	sb.Grow(int(min(size, max)) + 1)
	n, err := io.Copy(&sb, io.LimitReader(f, max+1))
	if err != nil {
		return "", fmt.Errorf("ingest: reading %s: %w", filepath.Base(path), err)
	}
	if n > max {
		return "", tooLarge(n, max)
	}
	return sb.String(), nil
}

func tooLarge(size, max int64) *SkipError {
	return &SkipError{Reason: fmt.Sprintf("too large: %s, larger than the %s limit", bytesize.Over(size, max), bytesize.Short(max))}
}
