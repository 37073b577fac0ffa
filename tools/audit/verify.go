package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Report is the result of a successful Verify.
type Report struct {
	// Records is the number of records, repair records included.
	Records int
	// Files is the number of log files.
	Files int
	// Head is the hex SHA-256 of the last record's line; "" without
	// records.
	Head string
	// HasHead reports whether the directory has a HEAD file. Records
	// without one are accepted (a crash before the first HEAD was
	// written), but then a log cut at its end cannot be told from a
	// whole one.
	HasHead bool
}

// Verify checks the whole audit log in dir: every line is one JSON
// record, the sequence numbers run 1, 2, … across the files in name
// order, each record's prev is the hash of the line before it (64 zeros
// for the first), and the log reaches the record HEAD names, with HEAD's
// hash. A HEAD behind the log (a crash between a record and its HEAD) is
// accepted. A missing or empty dir is a log without records.
//
// A broken log yields a *BrokenError naming the first broken record;
// other errors (an unreadable file) are returned wrapped. Verify reads
// one line at a time: its memory does not grow with the log.
func Verify(dir string) (Report, error) {
	h, hasHead, err := readHead(dir)
	if err != nil {
		return Report{}, err
	}
	files, err := logFiles(dir)
	if err != nil {
		return Report{}, err
	}
	v := &verifier{head: h, hasHead: hasHead, prev: zeroHash}
	for i, name := range files {
		if err := v.file(dir, name, i == len(files)-1); err != nil {
			return Report{}, err
		}
	}
	if err := v.checkHead(); err != nil {
		return Report{}, err
	}
	rep := Report{Records: int(v.seq), Files: len(files), HasHead: hasHead}
	if v.seq > 0 {
		rep.Head = v.prev
	}
	return rep, nil
}

// verifier walks the chain.
type verifier struct {
	head    head
	hasHead bool
	// seq and prev are the last record's sequence number and hash.
	seq  int64
	prev string
	// prevAt is where the last record is.
	prevFile string
	prevLine int
	// headFound is set when the record HEAD names was seen; headFile,
	// headLine and headHash describe it.
	headFound          bool
	headFile, headHash string
	headLine           int
}

// file checks one log file; last is set for the last file.
func (v *verifier) file(dir, name string, last bool) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	lr := newLineReader(f)
	for {
		line, torn, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("audit: reading %s: %w", name, err)
		}
		broken := func(seq int64, format string, a ...any) error {
			return &BrokenError{File: name, Line: lr.n, Seq: seq, Reason: fmt.Sprintf(format, a...)}
		}
		want := v.seq + 1
		switch {
		case tooLong:
			return broken(want, "line longer than %d bytes", MaxLine)
		case torn && last && v.hasHead && v.head.Seq >= want:
			return broken(want, "incomplete last line, but HEAD names record %d: a record written whole was cut short (not a crash: records are fsynced before HEAD)", v.head.Seq)
		case torn && last:
			return broken(want, "incomplete last line (a crash during a write; opening the log repairs it)")
		case torn:
			return broken(want, "incomplete last line in a file that is not the last")
		}
		var cf chainFields
		if err := json.Unmarshal(line, &cf); err != nil {
			return broken(want, "not a JSON record")
		}
		if cf.Seq == nil || cf.Prev == nil {
			return broken(want, "record without seq or prev")
		}
		seq := *cf.Seq
		hash, sealed := unseal(line)
		switch {
		case !sealed && seq == want:
			return broken(seq, "the record's hash does not match its content: this record was changed")
		case !sealed:
			return broken(want, "the record's hash does not match its content: this record was changed")
		case seq == want+1:
			return broken(seq, "seq is %d, expected %d: record %d is missing (deleted)", seq, want, want)
		case seq > want:
			return broken(seq, "seq is %d, expected %d: records %d to %d are missing (deleted)", seq, want, want, seq-1)
		case seq < want:
			return broken(seq, "seq is %d, expected %d: records repeated or out of order", seq, want)
		case *cf.Prev != v.prev && v.seq == 0:
			return broken(seq, "prev of the first record is not 64 zeros: earlier records were removed")
		case *cf.Prev != v.prev:
			return broken(seq, "prev does not match the hash of record %d (%s:%d): the chain was rewritten from here", v.seq, v.prevFile, v.prevLine)
		}
		v.seq, v.prev, v.prevFile, v.prevLine = seq, hash, name, lr.n
		if v.hasHead && seq == v.head.Seq {
			v.headFound, v.headFile, v.headLine, v.headHash = true, name, lr.n, v.prev
		}
	}
}

// checkHead compares the end of the log with HEAD.
func (v *verifier) checkHead() error {
	if !v.hasHead || v.head.Seq == 0 {
		return nil
	}
	if !v.headFound {
		file, line := v.prevFile, v.prevLine+1
		if file == "" {
			file, line = headName, 1
		}
		return &BrokenError{File: file, Line: line, Seq: v.seq + 1,
			Reason: fmt.Sprintf("the log ends at record %d but HEAD names record %d: records were deleted from the end", v.seq, v.head.Seq)}
	}
	if v.headHash != v.head.Hash {
		return &BrokenError{File: v.headFile, Line: v.headLine, Seq: v.head.Seq,
			Reason: "the record's hash differs from HEAD's: it was changed"}
	}
	return nil
}
