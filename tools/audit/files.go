package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"
)

// DirName is the audit directory's name inside the server's data
// directory: the daemon opens <data>/audit, and "opsassist audit verify
// --data DIR" checks DIR/audit.
const DirName = "audit"

// Names in the audit directory.
const (
	headName = "HEAD"
	headTemp = "HEAD.tmp"
	fileExt  = ".jsonl"
	// dayLayout is a log file's name without the extension.
	dayLayout = "2006-01-02"
)

// Permissions of the audit directory and its files.
const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// reLogFile matches a log file's name.
var reLogFile = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.jsonl$`)

// fileName is the log file for t's UTC day.
func fileName(t time.Time) string { return t.UTC().Format(dayLayout) + fileExt }

// logFiles lists the log files in dir, oldest first; a missing dir has
// none.
func logFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: listing %s: %w", dir, err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && reLogFile.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// head is the content of <dir>/HEAD: the last record written.
type head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	File string `json:"file"`
}

// maxHead bounds the HEAD file Verify and Open read.
const maxHead = 4 << 10

// readHead reads <dir>/HEAD; ok is false when there is none.
func readHead(dir string) (h head, ok bool, err error) {
	f, err := os.Open(filepath.Join(dir, headName))
	if errors.Is(err, fs.ErrNotExist) {
		return head{}, false, nil
	}
	if err != nil {
		return head{}, false, fmt.Errorf("audit: reading HEAD: %w", err)
	}
	defer f.Close()
	b := make([]byte, maxHead+1)
	n, err := readFull(f, b)
	if err != nil {
		return head{}, false, fmt.Errorf("audit: reading HEAD: %w", err)
	}
	if n > maxHead {
		return head{}, false, &BrokenError{File: headName, Line: 1, Reason: "HEAD is too long"}
	}
	if err := json.Unmarshal(b[:n], &h); err != nil || h.Seq < 0 || !isHash(h.Hash) {
		return head{}, false, &BrokenError{File: headName, Line: 1, Reason: "HEAD is not a valid {seq, hash, file} object"}
	}
	return h, true, nil
}

// readFull reads until b is full or the end of r; the end is no error.
func readFull(f *os.File, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := f.Read(b[n:])
		n += m
		if err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
	}
	return n, nil
}

// writeHead replaces <dir>/HEAD atomically: a temporary file, fsync
// (with sync), rename. The directory is not synced: a HEAD lost in a
// crash is behind the log, which Verify accepts.
func writeHead(dir string, h head, sync bool) error {
	b, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("audit: encoding HEAD: %w", err)
	}
	tmp := filepath.Join(dir, headTemp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, filePerm)
	if err != nil {
		return fmt.Errorf("audit: writing HEAD: %w", err)
	}
	_, werr := f.Write(append(b, '\n'))
	var serr error
	if sync {
		serr = f.Sync()
	}
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("audit: writing HEAD: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, headName)); err != nil {
		return fmt.Errorf("audit: writing HEAD: %w", err)
	}
	return nil
}

// syncDir fsyncs a directory so that a file created in it survives a
// crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	serr := d.Sync()
	return errors.Join(serr, d.Close())
}

// isHash reports whether s is a hex SHA-256.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
