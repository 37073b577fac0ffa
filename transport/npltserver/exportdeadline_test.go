package npltserver

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
)

// TestSessionExportSendDeadline: a client that takes an export a byte a
// second (never long enough on one write for the write deadline) is
// closed once chat.ExportSendTime of the export has passed, and the
// export budget it held is given back: the same user's export, refused
// as busy meanwhile, is then answered in full. It runs on synctest's
// clock over net.Pipe; the reader's pauses are the condition under
// test.
func TestSessionExportSendDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pl := newPipeListener()
		ts := startServerOn(t, "", pl, func(c *Config, cc *chat.Config) {
			c.WriteTimeout, c.IdleTimeout = time.Hour, time.Hour
			c.QueueFrames = 4
			cc.ExportBudget = chat.MaxExport // one export of the 17 MiB below at a time
		})
		conv := ts.hist.NewOwned(time.Now(), chat.Local().ID)
		for range 17 {
			if err := conv.Append(history.Message{Role: "assistant", Content: strings.Repeat("x", 1<<20)}); err != nil {
				t.Fatal(err)
			}
		}
		want, err := chat.Export(conv.Summary(), conv.Messages(), conv.Uploads(), "json")
		if err != nil {
			t.Fatal(err)
		}
		limit := chat.ExportSendTime(len(want))
		req := []byte(`{"session_id":"` + conv.ID() + `","format":"json"}`)

		slow := greeted(t, pl.dial(), true)
		start := time.Now()
		slow.send(nplt.SessionExport, req)
		slow.read() // the first frame; then a byte a second
		other := greeted(t, pl.dial(), true)
		other.send(nplt.SessionExport, req)
		if b, code := exportReply(t, other); code != api.CodeServerBusy || len(b) != 0 {
			t.Fatalf("while the slow export holds the budget: %q, %d bytes", code, len(b))
		}
		var one [1]byte
		slow.nc.SetReadDeadline(time.Time{}) // the helper's deadline is not the condition under test
		for {
			time.Sleep(time.Second)
			if _, err := slow.nc.Read(one[:]); err != nil {
				break
			}
		}
		if took := time.Since(start); took < limit || took > limit+2*time.Second {
			t.Fatalf("the slow reader was closed after %v; want %v", took, limit)
		}
		other.send(nplt.SessionExport, req)
		if b, code := exportReply(t, other); code != "" || string(b) != string(want) {
			t.Fatalf("after the slow one was closed: %q, %d of %d bytes", code, len(b), len(want))
		}
	})
}
