package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Query limits.
const (
	// DefaultQueryLimit is Query's limit when it is given none (≤ 0).
	DefaultQueryLimit = 100
	// MaxQueryLimit caps Query's limit, so that an answer holds at most
	// MaxQueryLimit records of at most MaxLine bytes.
	MaxQueryLimit = 1000
)

// queryFields are the fields Query filters on.
type queryFields struct {
	Time string `json:"time"`
	User string `json:"user"`
	Tool string `json:"tool"`
}

// Query returns the records with a time at or after since and, when
// user or tool is not empty, that user and tool, oldest first: the last
// limit of them (limit ≤ 0: DefaultQueryLimit; at most MaxQueryLimit).
// Each is a record's line as written. Query streams the files from
// since's UTC day on, one line at a time, and skips lines it cannot read
// (Verify reports them); it does not wait for Record. Repair records
// match only when user and tool are empty. It stops with ctx's error
// when ctx ends, and fails with ErrRemoved when the log was removed or
// replaced while the server ran.
func (l *Log) Query(ctx context.Context, since time.Time, user, tool string, limit int) ([]json.RawMessage, error) {
	if limit <= 0 {
		limit = DefaultQueryLimit
	}
	limit = min(limit, MaxQueryLimit)
	if err := l.Check(); err != nil && !errors.Is(err, ErrClosed) {
		return nil, err // the log was removed or replaced: an empty answer would hide it
	}
	files, err := logFiles(l.dir)
	if err != nil {
		return nil, err
	}
	first := ""
	if !since.IsZero() {
		first = fileName(since)
	}
	q := &query{since: since, user: user, tool: tool, ring: make([]json.RawMessage, limit)}
	for _, name := range files {
		if name < first {
			continue
		}
		if err := q.file(ctx, filepath.Join(l.dir, name)); err != nil {
			return nil, err
		}
	}
	return q.result(), nil
}

// query collects the last matching records in a ring.
type query struct {
	since      time.Time
	user, tool string
	ring       []json.RawMessage
	n          int // records matched
}

// file streams one log file into the ring.
func (q *query) file(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	lr := newLineReader(f)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, torn, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("audit: reading %s: %w", filepath.Base(path), err)
		}
		if torn || tooLong || !q.match(line) {
			continue
		}
		q.ring[q.n%len(q.ring)] = append(json.RawMessage(nil), line...)
		q.n++
	}
}

// match reports whether a line is a record the query asks for.
func (q *query) match(line []byte) bool {
	var f queryFields
	if json.Unmarshal(line, &f) != nil {
		return false
	}
	if (q.user != "" && !strings.EqualFold(f.User, q.user)) || (q.tool != "" && f.Tool != q.tool) {
		return false
	}
	if q.since.IsZero() {
		return true
	}
	t, err := time.Parse(time.RFC3339Nano, f.Time)
	return err == nil && !t.Before(q.since)
}

// result returns the ring's records, oldest first.
func (q *query) result() []json.RawMessage {
	k := len(q.ring)
	if q.n < k {
		return q.ring[:q.n:q.n]
	}
	out := make([]json.RawMessage, 0, k)
	for i := range k {
		out = append(out, q.ring[(q.n+i)%k])
	}
	return out
}
