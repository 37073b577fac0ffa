package npltserver

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/tokens"
	"opsassist/tools"
	"opsassist/tools/download"
)

// anyPath is a download.PathChecker that allows every path.
type anyPath struct{}

func (anyPath) Check(p string) (string, error) { return p, nil }

// TestToolCallDownloadOverNPLT: file_download called directly (TOOL_CALL,
// transport_mode nplt) answers the offer in its result — token, size,
// sha256 — though a direct call has no offer callback; the token is the
// caller's (tokens.Token.Owner): the same connection fetches the file
// with FILE_REQUEST in a conversation nothing was recorded in yet, and
// another user holding the token is told it is unknown.
func TestToolCallDownloadOverNPLT(t *testing.T) {
	store := tokens.NewStore(0)
	dl, err := download.New(download.Config{Paths: anyPath{}, Tokens: store})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(dl); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, "", withUsers(t), func(c *Config, _ *chat.Config) { c.Catalog, c.Runner, c.Tokens = catalogOf{reg}, reg, store })
	data := bytes.Repeat([]byte("opsassist "), 10<<10)
	path := filepath.Join(t.TempDir(), "app.log")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}

	alice, _ := login(t, ts.addr, aliceToken)
	args, _ := json.Marshal(map[string]any{"name": "file_download", "arguments": map[string]string{"file_path": path, "transport_mode": "nplt"}})
	r := alice.call(t, string(args))
	var offer api.Offer
	if err := json.Unmarshal(r.Output, &offer); !r.Success || err != nil || offer.DownloadToken == "" || offer.TransportMode != api.TransportNPLT ||
		offer.FileSize != int64(len(data)) || len(offer.SHA256) != 64 || offer.Filename != "app.log" {
		t.Fatalf("result %+v: %+v %v", r, offer, err)
	}

	alice.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: offer.DownloadToken})
	fs := alice.reply()
	var got []byte
	for _, f := range fs {
		switch f.Type {
		case nplt.FileData:
			got = append(got, f.Payload...)
		case nplt.Error:
			t.Fatalf("alice's FILE_REQUEST refused: %s", f.Payload)
		}
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("got %d bytes, want %d", len(got), len(data))
	}

	bob, _ := login(t, ts.addr, bobToken)
	bob.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: offer.DownloadToken})
	if code := errorCode(t, bob.reply()); code != api.CodeTokenUnknown {
		t.Fatalf("bob fetching alice's offer: %q", code)
	}
}
