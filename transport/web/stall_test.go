package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/chat"
)

// deadlineRecorder is a ResponseWriter that keeps the write deadlines
// http.ResponseController sets on it.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// TestStallWriterEnd: an export's writes get a deadline that moves with
// each chunk but never past the whole export's send time — a reader that
// takes a byte a second cannot hold the export budget for hours (as
// over NPLT, chat.ExportSendTime).
func TestStallWriterEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		start := time.Now()
		end := start.Add(chat.ExportSendTime(1 << 10)) // the 30 s floor
		sw := &stallWriter{ResponseWriter: rec, rc: http.NewResponseController(rec), stall: 20 * time.Second, end: end}
		for range 5 {
			if _, err := sw.Write([]byte("x")); err != nil {
				t.Fatal(err)
			}
			time.Sleep(5 * time.Second) // a slow reader: one chunk every 5 s
		}
		if len(rec.deadlines) != 5 {
			t.Fatalf("deadlines %v", rec.deadlines)
		}
		if got := rec.deadlines[0]; !got.Equal(start.Add(20 * time.Second)) {
			t.Errorf("first deadline %v after start, want the stall timeout", got.Sub(start))
		}
		for i, d := range rec.deadlines {
			if d.After(end) {
				t.Errorf("deadline %d is %v after the export's end", i, d.Sub(end))
			}
		}
		if last := rec.deadlines[4]; !last.Equal(end) {
			t.Errorf("last deadline %v, want the export's end %v", last.Sub(start), end.Sub(start))
		}
	})
}
