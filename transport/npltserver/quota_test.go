package npltserver

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/uploads"
)

// TestUploadQuotas: FILE_METADATA past the conversation's or the
// server's upload quota is answered with ERROR quota_exceeded, a
// bilingual message without internal prefixes, and nothing stored; the
// connection keeps working.
func TestUploadQuotas(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opt   serverOpt
		scope string
	}{
		{"conversation", func(_ *Config, cc *chat.Config) { cc.MaxUploadBytesPerConversation = 1000 }, "this conversation"},
		{"server", func(_ *Config, cc *chat.Config) {
			ups, err := uploads.Open(uploads.Config{Dir: cc.Uploads.Dir(), MaxSize: 100 << 20, MaxTotal: 1000})
			if err != nil {
				t.Fatal(err)
			}
			cc.Uploads = ups
		}, "the server"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ts := startServer(t, dir, tt.opt)
			c := dial(t, ts.addr, true)
			c.t = t
			if fs := c.upload("a.txt", make([]byte, 600), ""); errorCode(t, fs) != "" {
				t.Fatalf("upload within the quota: %v", fs)
			}
			c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "b.txt", Size: 500})
			c.send(nplt.FileData, make([]byte, 500)) // already in flight: dropped quietly
			fs := c.reply()
			if code := errorCode(t, fs); code != api.CodeQuotaExceeded {
				t.Fatalf("code %q, want %q (%v)", code, api.CodeQuotaExceeded, fs)
			}
			var e nplt.ErrorPayload
			for _, f := range fs {
				if f.Type == nplt.Error {
					json.Unmarshal(f.Payload, &e)
				}
			}
			if !strings.Contains(e.Message, "上传配额已满") || !strings.Contains(e.Message, tt.scope) || strings.Contains(e.Message, "uploads:") {
				t.Fatalf("message %q", e.Message)
			}
			committed, temp := uploadEntries(t, dir)
			if len(committed) != 1 || len(temp) != 0 {
				t.Fatalf("after the refusal: committed %v, temp %v", committed, temp)
			}
			if got := replyText(c.chat("still there?")); !strings.Contains(got, "still there?") {
				t.Fatalf("after refusal: %q", got)
			}
			if fs := c.upload("c.txt", make([]byte, 400), ""); errorCode(t, fs) != "" {
				t.Fatalf("upload up to the quota: %v", fs)
			}
			if committed, _ := uploadEntries(t, dir); len(committed) != 2 {
				t.Fatalf("committed %v, want 2 uploads", committed)
			}
		})
	}
}

// TestTooLargeBeforeQuota: a declared size past max_upload is told
// upload_too_large, not that a quota is full, even when it would pass
// the quotas as well.
func TestTooLargeBeforeQuota(t *testing.T) {
	for _, size := range []int64{300 << 20, 3 << 30, 1<<63 - 1} {
		ts := startServer(t, "", func(_ *Config, cc *chat.Config) {
			cc.MaxUploadBytesPerConversation = 1000
			ups, err := uploads.Open(uploads.Config{Dir: cc.Uploads.Dir(), MaxSize: 100 << 20, MaxTotal: 1000})
			if err != nil {
				t.Fatal(err)
			}
			cc.Uploads = ups
		})
		c := dial(t, ts.addr, true)
		c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "big.iso", Size: size})
		if code := errorCode(t, c.reply()); code != api.CodeUploadTooLarge {
			t.Fatalf("size %d: code %q, want %q", size, code, api.CodeUploadTooLarge)
		}
	}
}
