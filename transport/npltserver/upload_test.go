package npltserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
)

// TestUploadIndexedNeverBeforeUploadDone: with an indexer that finishes
// at once, every UPLOAD_INDEXED still comes after its upload's
// UPLOAD_DONE and after the confirmation reply's end.
func TestUploadIndexedNeverBeforeUploadDone(t *testing.T) {
	// A queue that never fills: no notice is dropped for want of room.
	ts := startServer(t, "", func(c *Config, cc *chat.Config) { c.QueueFrames, cc.Indexer = 1024, testkit.InstantIndexer{} })
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

// errorMessage returns the message of the ERROR frame in fs.
func errorMessage(t testing.TB, fs []nplt.Frame) string {
	t.Helper()
	for _, f := range fs {
		if f.Type == nplt.Error {
			var e nplt.ErrorPayload
			if err := json.Unmarshal(f.Payload, &e); err != nil {
				t.Fatalf("bad ERROR payload %q", f.Payload)
			}
			return e.Message
		}
	}
	t.Fatalf("no ERROR in %v", fs)
	return ""
}

// TestUploadRefusalMessages: what a client reads for a refused upload
// has no storage-package prefix, and a failure on the server's side
// (here the uploads directory vanishes mid-upload) names no server path.
func TestUploadRefusalMessages(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for name, msg := range map[string]string{
		// One byte past the limit: the size never reads as the limit
		// ("100.0 MiB, limit 100 MiB" was seen).
		"too large": "文件太大：104857601 B，超过了单个文件 100 MiB 的上传上限。 File too large: 104857601 B is larger than the 100 MiB limit",
		"bad name":  "unusable file name",
		"bad sum":   "malformed sha256",
	} {
		m := nplt.FileMeta{Filename: "a.txt", Size: 1}
		switch name {
		case "too large":
			m.Size = 100<<20 + 1
		case "bad name":
			m.Filename = ".."
		case "bad sum":
			m.SHA256 = "xyz"
		}
		c.sendJSON(nplt.FileMetadata, m)
		if got := errorMessage(t, c.reply()); !strings.HasPrefix(got, msg) {
			t.Errorf("%s: message %q, want it to start %q", name, got, msg)
		}
	}

	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "gone.txt", Size: 2})
	c.send(nplt.FileData, []byte("a"))
	c.send(nplt.Ping, []byte("sync")) // the reader has taken the data once PONG is back
	for f := c.read(); f.Type != nplt.Pong; f = c.read() {
	}
	if err := os.RemoveAll(filepath.Join(ts.dataDir, "uploads")); err != nil {
		t.Fatal(err)
	}
	c.send(nplt.FileData, []byte("b"))
	fs := c.reply()
	if code, msg := errorCode(t, fs), errorMessage(t, fs); code != api.CodeInternal || strings.Contains(msg, ts.dataDir) || strings.Contains(msg, "uploads:") {
		t.Fatalf("server-side failure answered %s %q", code, msg)
	}
	if got := replyText(c.chat("still there?")); !strings.Contains(got, "still there?") {
		t.Fatalf("after the failure: %q", got)
	}
}
