package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"opsassist/nplt"
	"opsassist/server/chat"
	"opsassist/storage/history"
)

// instantIndexer indexes nothing and succeeds at once: the fastest
// indexer there can be.
type instantIndexer struct{}

func (instantIndexer) IndexUpload(context.Context, string, history.Upload) error { return nil }

// TestUploadIndexedNeverBeforeUploadDone: with an indexer that finishes
// at once, every UPLOAD_INDEXED still comes after its upload's
// UPLOAD_DONE and after the confirmation reply's end.
func TestUploadIndexedNeverBeforeUploadDone(t *testing.T) {
	// A queue that never fills: no notice is dropped for want of room.
	ts := startServer(t, "", func(c *Config, cc *chat.Config) { c.QueueFrames, cc.Indexer = 1024, instantIndexer{} })
	c := dial(t, ts.addr, true)
	const n = 20
	go func() { // a real client writes beside its reader
		for i := range n {
			b, _ := json.Marshal(nplt.FileMeta{Filename: fmt.Sprintf("f%d.txt", i), Size: 3})
			c.w.WriteFrame(nplt.FileMetadata, b)
			c.w.WriteFrame(nplt.FileData, []byte("abc"))
		}
		c.w.Flush()
	}()
	confirmed := map[string]bool{} // file id → its reply ended
	var inReply string             // file id of the confirmation being read
	indexed := 0
	for indexed < n {
		f := c.read()
		switch f.Type {
		case nplt.UploadDone:
			var d nplt.UploadDonePayload
			json.Unmarshal(f.Payload, &d)
			inReply = d.FileID
		case nplt.ChatText:
			if len(f.Payload) == 0 {
				confirmed[inReply] = true
			}
		case nplt.UploadIndexed:
			var p nplt.UploadIndexedPayload
			json.Unmarshal(f.Payload, &p)
			if !confirmed[p.FileID] || !p.Indexed {
				t.Fatalf("UPLOAD_INDEXED %s before its UPLOAD_DONE and confirmation (upload %d)", f.Payload, len(confirmed))
			}
			indexed++
		case nplt.UploadProgress:
		default:
			t.Fatalf("unexpected %v %q", f.Type, f.Payload)
		}
	}
}
