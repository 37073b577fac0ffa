package web

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/uploads"
)

// TestUploadQuotas: an upload past the conversation's or the server's
// quota gets 507 quota_exceeded and leaves no file, temp file or history
// record behind.
func TestUploadQuotas(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  envOpt
	}{
		{"conversation", func(_ *Config, cc *chat.Config) { cc.MaxUploadBytesPerConversation = 1000 }},
		{"server", func(_ *Config, cc *chat.Config) {
			ups, err := uploads.Open(uploads.Config{Dir: cc.Uploads.Dir(), MaxSize: 1 << 20, MaxTotal: 1000})
			if err != nil {
				t.Fatal(err)
			}
			cc.Uploads = ups
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testkit.Scripted{}, tt.opt)
			res, body := e.upload(t, "a.txt", make([]byte, 600), "file", "")
			var u uploadReply
			decode(t, body, &u)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("within the quota: %d %s", res.StatusCode, body)
			}
			res, body = e.upload(t, "b.txt", make([]byte, 500), "session_id", u.SessionID, "file", "")
			wantError(t, res, body, http.StatusInsufficientStorage, api.CodeQuotaExceeded)
			ents, _ := os.ReadDir(filepath.Join(e.dir, "uploads"))
			tmps, _ := os.ReadDir(filepath.Join(e.dir, "uploads", ".tmp"))
			if len(ents) != 2 || len(tmps) != 0 {
				t.Fatalf("after the refusal: %d entries, %d temp files", len(ents), len(tmps))
			}
			_, body = e.do(t, "GET", "/api/files?session_id="+u.SessionID, nil)
			var list struct {
				Files []map[string]any `json:"files"`
			}
			decode(t, body, &list)
			if len(list.Files) != 1 {
				t.Fatalf("files %s", body)
			}
		})
	}
}
