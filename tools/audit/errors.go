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
	// ErrRemoved is returned by Record once the audit directory or the
	// open log file is no longer at its path (removed, or replaced by
	// another file), and by every Record after it until the log is
	// opened again: records are not written to an unlinked file, and no
	// new chain is started behind the operator's back.
	ErrRemoved = errors.New("audit: log removed or replaced")
	// ErrHeadNotWritten is returned by Record when the record was kept
	// (written and fsynced) but HEAD could not be rewritten: HEAD stays
	// behind the log, which Verify and Open accept, and the caller
	// pauses tool calls until a Record succeeds again.
	ErrHeadNotWritten = errors.New("audit: HEAD not updated")
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
