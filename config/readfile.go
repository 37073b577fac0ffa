package config

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrFileTooLarge is matched (errors.Is) by LoadFile's and
// MergeMCPJSON's error for a file larger than MaxFileSize.
var ErrFileTooLarge = errors.New("config: file too large")

// MaxFileSize is the largest configuration file (YAML, or .mcp.json)
// LoadFile and MergeMCPJSON read: a real one is a few kilobytes, and a
// larger one is refused before it is parsed.
const MaxFileSize = 4 << 20

// readFile reads the file at path, at most MaxFileSize bytes; a larger
// file is an error naming the path and the limit (ErrFileTooLarge).
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, &tooLargeError{path: path}
	}
	return b, nil
}

// tooLargeError refuses a file larger than MaxFileSize; it matches
// ErrFileTooLarge.
type tooLargeError struct{ path string }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s: file too large: more than %d bytes (4 MiB); a configuration file is a few kilobytes", e.path, MaxFileSize)
}

func (e *tooLargeError) Is(target error) bool { return target == ErrFileTooLarge }
