package audit

import (
	"errors"
	"fmt"
)

var (
	// ErrClosed is returned by Record after Close.
	ErrClosed = errors.New("audit: log closed")
	// ErrRecordTooLarge is returned by Record for a record whose line
	// would exceed MaxLine (the field bounds keep records far below it).
	ErrRecordTooLarge = errors.New("audit: record too large")
)

// BrokenError names the first record at which an audit log's chain is
// broken: an edited, inserted, reordered or deleted record, a torn or
// overlong line, or a log that ends before the record HEAD names.
type BrokenError struct {
	// File is the log file's name (YYYY-MM-DD.jsonl, or HEAD), relative
	// to the audit directory.
	File string
	// Line is the 1-based line in File.
	Line int
	// Seq is the sequence number the record at that place has or should
	// have.
	Seq int64
	// Reason says what is wrong.
	Reason string
}

// Error returns "audit: broken: <file>:<line> (record <seq>): <reason>".
func (e *BrokenError) Error() string {
	return fmt.Sprintf("audit: broken: %s:%d (record %d): %s", e.File, e.Line, e.Seq, e.Reason)
}
