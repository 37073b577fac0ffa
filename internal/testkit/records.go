package testkit

import (
	"sync"
	"testing"

	"opsassist/tools"
)

// Records is a tools.Recorder that keeps the audit records in memory,
// for tests that check what the registry recorded. Safe for concurrent
// use; the zero value is ready.
type Records struct {
	mu   sync.Mutex
	recs []tools.CallRecord
}

var _ tools.Recorder = (*Records)(nil)

// Record keeps c.
func (r *Records) Record(c tools.CallRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, c)
	return nil
}

// All returns a copy of the records so far, oldest first.
func (r *Records) All() []tools.CallRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tools.CallRecord(nil), r.recs...)
}

// Last returns the newest record; it fails t when there is none.
func (r *Records) Last(t testing.TB) tools.CallRecord {
	t.Helper()
	recs := r.All()
	if len(recs) == 0 {
		t.Fatal("no audit record")
	}
	return recs[len(recs)-1]
}
