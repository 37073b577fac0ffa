package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// tailWindow is how much of a file's end Open reads: room for two
// records of MaxLine bytes, their newlines and the newline before them.
const tailWindow = 2*(MaxLine+1) + 1

// loadTail finds the last record for Open and checks that it links to
// the one before it and agrees with HEAD; a torn last line is left out
// of the checks. Only when every check passed is the torn line cut off
// its file (which is fsynced) and its length returned: a log Open
// refuses is left byte for byte as it was found.
func (l *Log) loadTail() (torn int64, err error) {
	files, err := logFiles(l.dir)
	if err != nil {
		return 0, err
	}
	h, hasHead, err := readHead(l.dir)
	if err != nil {
		return 0, err
	}
	l.head, l.hasHead = h, hasHead
	if len(files) > 0 {
		l.name = files[len(files)-1]
	}
	// got holds the last two records' lines, the last first.
	var (
		got      [][]byte
		lastFile string
		cuts     []tornLine
	)
	for i := len(files) - 1; i >= 0 && len(got) < 2; i-- {
		lines, cut, err := readTail(l.dir, files[i], len(got) == 0)
		if err != nil {
			return 0, err
		}
		if cut.bytes > 0 {
			cuts = append(cuts, cut)
		}
		for j := len(lines) - 1; j >= 0 && len(got) < 2; j-- {
			if len(got) == 0 {
				lastFile = files[i]
			}
			got = append(got, lines[j])
		}
	}
	broken := func(file string, seq int64, format string, a ...any) error {
		return &BrokenError{File: file, Line: countLines(filepath.Join(l.dir, file)), Seq: seq, Reason: fmt.Sprintf(format, a...)}
	}
	if len(got) == 0 {
		if hasHead && h.Seq > 0 {
			return 0, &BrokenError{File: headName, Line: 1, Seq: 1, Reason: fmt.Sprintf("the log has no records but HEAD names record %d: records were deleted", h.Seq)}
		}
		return l.cut(cuts)
	}
	var last chainFields
	if err := json.Unmarshal(got[0], &last); err != nil || last.Seq == nil || last.Prev == nil {
		return 0, broken(lastFile, 0, "the last line is not a record")
	}
	seq, prev := *last.Seq, *last.Prev
	hash, sealed := unseal(got[0])
	if !sealed {
		return 0, broken(lastFile, seq, "the last record's hash does not match its content: it was changed")
	}
	l.seq, l.hash = seq, hash
	if len(got) == 2 {
		var before chainFields
		beforeHash, beforeSealed := unseal(got[1])
		if err := json.Unmarshal(got[1], &before); err != nil || !beforeSealed || before.Seq == nil || *before.Seq != seq-1 || prev != beforeHash {
			return 0, broken(lastFile, seq, "the last record does not link to the one before it")
		}
	} else if seq != 1 || prev != zeroHash {
		return 0, broken(lastFile, seq, "the only record is not record 1 with a zero prev")
	}
	switch {
	case !hasHead:
	case h.Seq == seq+1 && len(cuts) > 0:
		// As Verify says it: the line after the last record is torn, but
		// HEAD names it, so it was written whole and fsynced.
		return 0, &BrokenError{File: cuts[0].name, Line: countLines(filepath.Join(l.dir, cuts[0].name)) + 1, Seq: h.Seq,
			Reason: fmt.Sprintf("incomplete last line, but HEAD names record %d: a record written whole was cut short", h.Seq)}
	case h.Seq > seq:
		return 0, &BrokenError{File: lastFile, Line: countLines(filepath.Join(l.dir, lastFile)) + 1, Seq: seq + 1,
			Reason: fmt.Sprintf("the log ends at record %d but HEAD names record %d: records were deleted from the end", seq, h.Seq)}
	case h.Seq == seq && h.Hash != l.hash:
		return 0, broken(lastFile, seq, "the last record's hash differs from HEAD's: it was changed")
	case h.Seq == seq-1 && h.Hash != prev:
		return 0, broken(lastFile, seq-1, "the record before the last differs from HEAD's hash: it was changed")
	}
	return l.cut(cuts)
}

// tornLine is a last line without a newline: the bytes of file name
// from offset keep on.
type tornLine struct {
	name  string
	keep  int64
	bytes int64
}

// cut cuts the torn lines off their files and fsyncs them, returning the
// bytes cut.
func (l *Log) cut(cuts []tornLine) (torn int64, err error) {
	for _, c := range cuts {
		if err := truncateFile(filepath.Join(l.dir, c.name), c.keep); err != nil {
			return torn, fmt.Errorf("audit: repairing %s: %w", c.name, err)
		}
		torn += c.bytes
	}
	return torn, nil
}

// truncateFile cuts path to size bytes and fsyncs it.
func truncateFile(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	terr := f.Truncate(size)
	var serr error
	if terr == nil {
		serr = f.Sync()
	}
	return errors.Join(terr, serr, f.Close())
}

// readTail returns the complete lines (at most the last two) in the last
// tailWindow bytes of dir/name, without newlines, oldest first. It only
// reads. A last line without a newline is, with allowTorn, left out of
// lines and described in torn (for loadTail to cut once the log is
// accepted); without, it is a broken log.
func readTail(dir, name string, allowTorn bool) (lines [][]byte, torn tornLine, err error) {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	if err != nil {
		return nil, tornLine{}, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, tornLine{}, fmt.Errorf("audit: %w", err)
	}
	size := fi.Size()
	if size == 0 {
		return nil, tornLine{}, nil
	}
	start := max(size-tailWindow, 0)
	buf := make([]byte, size-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return nil, tornLine{}, fmt.Errorf("audit: reading %s: %w", name, err)
	}
	if buf[len(buf)-1] != '\n' {
		idx := bytes.LastIndexByte(buf, '\n')
		if !allowTorn || (idx < 0 && start > 0) {
			return nil, tornLine{}, &BrokenError{File: name, Line: countLines(path) + 1, Reason: "incomplete or overlong last line"}
		}
		keep := start + int64(idx+1)
		torn = tornLine{name: name, keep: keep, bytes: size - keep}
		buf = buf[:idx+1]
	}
	// Complete lines: each ends in a newline and starts after one (or at
	// the file's start).
	rest := buf
	if len(rest) > 0 {
		rest = rest[:len(rest)-1]
	}
	for len(rest) > 0 && len(lines) < 2 {
		i := bytes.LastIndexByte(rest, '\n')
		if i < 0 && start > 0 {
			break // the window starts inside this line
		}
		lines = append([][]byte{rest[i+1:]}, lines...)
		if i < 0 {
			break
		}
		rest = rest[:i]
	}
	if len(buf) > 0 && len(lines) == 0 {
		return nil, torn, &BrokenError{File: name, Line: countLines(path), Reason: fmt.Sprintf("the last line is longer than %d bytes", MaxLine)}
	}
	return lines, torn, nil
}

// countLines counts the newlines in a file, for an error message; 0 when
// it cannot be read.
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 32<<10)
	for {
		m, err := f.Read(buf)
		n += bytes.Count(buf[:m], []byte{'\n'})
		if err != nil {
			return n
		}
	}
}
