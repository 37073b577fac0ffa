package npltserver

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/tokens"
)

// TestFileRequest downloads a token's file over NPLT (the RDT fallback)
// and checks the refusals: bad JSON, unknown and expired tokens, a file
// changed since its token was issued, and a server without a token store.
func TestFileRequest(t *testing.T) {
	store := tokens.NewStore(0)
	s := startServer(t, "", func(c *Config, _ *chat.Config) { c.Tokens = store })
	data := make([]byte, 100<<10+5)
	rand.Read(data)
	path := filepath.Join(t.TempDir(), "f.bin")
	os.WriteFile(path, data, 0o600)
	sum := sha256.Sum256(data)
	tok, _ := store.Issue(tokens.Token{Path: path, Filename: "f.bin", Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, time.Now())
	changed, _ := store.Issue(tokens.Token{Path: path, Filename: "f.bin", Size: 1, SHA256: tok.SHA256}, time.Now())
	expired, _ := store.Issue(tokens.Token{Path: path, Filename: "f.bin", Size: int64(len(data)), SHA256: tok.SHA256}, time.Now().Add(-tokens.DefaultTTL-time.Second))

	c := dial(t, s.addr, true)
	c.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: tok.ID})
	fs := c.reply()
	if fs[0].Type != nplt.FileMetadata {
		t.Fatalf("first frame %v", fs[0].Type)
	}
	var meta nplt.FileMeta
	if err := json.Unmarshal(fs[0].Payload, &meta); err != nil || meta.Size != int64(len(data)) || meta.SHA256 != tok.SHA256 || meta.Filename != "f.bin" {
		t.Fatalf("meta %+v %v", meta, err)
	}
	var got []byte
	for _, f := range fs[1 : len(fs)-1] {
		if f.Type != nplt.FileData {
			t.Fatalf("frame %v", f.Type)
		}
		got = append(got, f.Payload...)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("bytes differ")
	}
	for _, c2 := range []struct {
		payload []byte
		code    string
	}{
		{[]byte(`{"download_token":""}`), api.CodeBadJSON},
		{[]byte(`nope`), api.CodeBadJSON},
		{[]byte(`{"download_token":"unknown"}`), api.CodeTokenUnknown},
		{[]byte(`{"download_token":"` + expired.ID + `"}`), api.CodeTokenExpired},
		{[]byte(`{"download_token":"` + changed.ID + `"}`), api.CodeFileChanged},
	} {
		c.send(nplt.FileRequest, c2.payload)
		if code := errorCode(t, c.reply()); code != c2.code {
			t.Errorf("%s: %s, want %s", c2.payload, code, c2.code)
		}
	}

	plain := startServer(t, "")
	c = dial(t, plain.addr, true)
	c.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: tok.ID})
	if code := errorCode(t, c.reply()); code != api.CodeNotFound {
		t.Errorf("without tokens: %s", code)
	}
}
