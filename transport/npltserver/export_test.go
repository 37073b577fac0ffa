package npltserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
)

// exportReply reads a reply to SESSION_EXPORT: the concatenated
// SESSION_EXPORT payloads and the error code, if any.
func exportReply(t *testing.T, c *client) ([]byte, string) {
	t.Helper()
	fs := c.reply()
	var b []byte
	for _, f := range fs {
		if f.Type == nplt.SessionExport {
			b = append(b, f.Payload...)
		}
	}
	return b, errorCode(t, fs)
}

// TestSessionExport: SESSION_EXPORT answers chat.Export's bytes, in md
// (also the default) and json, by id or prefix, for the current
// conversation too; asking again gives the same bytes. A client that
// sent no HELLO is refused.
func TestSessionExport(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.chat("你好")
	var sum history.Summary
	c.send(nplt.SessionNew, nil)
	result(t, c.reply(), &sum)
	c.send(nplt.SessionList, nil)
	c.reply()
	list := ts.svc.List(chat.Local())
	if len(list) != 1 {
		t.Fatalf("list %+v", list)
	}
	id := list[0].ID
	conv, err := ts.hist.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ payload, format string }{
		{`{"session_id":"` + id + `","format":"md"}`, "md"},
		{`{"session_id":"` + id[:8] + `"}`, "md"},
		{`{"session_id":"` + id + `","format":"json"}`, "json"},
		{`{"session_id":"` + id + `","format":"json"}`, "json"}, // replayed
	} {
		want, err := chat.Export(conv.Summary(), conv.Messages(), conv.Uploads(), tc.format)
		if err != nil {
			t.Fatal(err)
		}
		c.send(nplt.SessionExport, []byte(tc.payload))
		got, code := exportReply(t, c)
		if code != "" || !bytes.Equal(got, want) {
			t.Fatalf("%s: code %q\n%s\nwant\n%s", tc.payload, code, got, want)
		}
	}
	pub := dial(t, ts.addr, false)
	pub.send(nplt.SessionExport, []byte(`{"session_id":"`+id+`"}`))
	if text := replyText(pub.reply()); !strings.Contains(text, "HELLO") {
		t.Fatalf("published client: %q", text)
	}
	// The current conversation, not saved yet, exports too.
	c.send(nplt.SessionExport, []byte(`{"session_id":"`+sum.ID+`","format":"json"}`))
	got, code := exportReply(t, c)
	var doc struct {
		Session  history.Summary   `json:"session"`
		Messages []history.Message `json:"messages"`
	}
	if code != "" || json.Unmarshal(got, &doc) != nil || doc.Session.ID != sum.ID || doc.Messages == nil {
		t.Fatalf("current: %q %s", code, got)
	}
}

// TestSessionExportRefused: malformed, oversized, unknown-id, bad
// format requests get ERROR and end, the connection stays
// usable; another user's conversation is not_found.
func TestSessionExportRefused(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.Users = twoUsers(t) })
	alice, aliceSid := login(t, ts.addr, aliceToken)
	alice.chat("hello")
	bob, _ := login(t, ts.addr, bobToken)
	for _, tc := range []struct {
		payload, code string
	}{
		{``, api.CodeBadJSON},
		{`nope`, api.CodeBadJSON},
		{`{}`, api.CodeBadJSON},
		{`{"session_id":1}`, api.CodeBadJSON},
		{`{"session_id":"x"} trailing`, api.CodeBadJSON},
		{`{"session_id":"` + aliceSid + `","format":"pdf"}`, api.CodeBadRequest},
		{`{"session_id":"` + strings.Repeat("a", maxExportPayload) + `"}`, api.CodeTooLarge},
		{`{"session_id":"00000000-0000-0000-0000-000000000000"}`, api.CodeNotFound},
		{`{"session_id":"` + aliceSid + `"}`, api.CodeNotFound},     // alice's, asked by bob
		{`{"session_id":"` + aliceSid[:8] + `"}`, api.CodeNotFound}, // nor by prefix
	} {
		bob.send(nplt.SessionExport, []byte(tc.payload))
		b, code := exportReply(t, bob)
		if code != tc.code || len(b) != 0 {
			t.Errorf("%.60s: code %q, %d bytes; want %s", tc.payload, code, len(b), tc.code)
		}
	}
	alice.send(nplt.SessionExport, []byte(`{"session_id":"`+aliceSid+`"}`))
	if b, code := exportReply(t, alice); code != "" || !strings.Contains(string(b), "hello") {
		t.Fatalf("alice: %q %s", code, b)
	}
}

// TestSessionExportStalledReader: a client that asks for a large export
// and stops reading holds up only its own connection: another client's
// requests are answered meanwhile (a second big export of the same user
// is refused at once, over their share of the export budget).
func TestSessionExportStalledReader(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.WriteTimeout = time.Minute })
	conv := ts.hist.NewOwned(time.Now(), chat.Local().ID)
	big := strings.Repeat("x", 1<<20)
	for range 24 { // 24 MiB: more than the socket buffers hold
		if err := conv.Append(history.Message{Role: "assistant", Content: big}); err != nil {
			t.Fatal(err)
		}
	}
	stalled := dial(t, ts.addr, true)
	stalled.send(nplt.SessionExport, []byte(`{"session_id":"`+conv.ID()+`","format":"json"}`))
	if f := stalled.read(); f.Type != nplt.SessionExport {
		t.Fatalf("first frame %v", f.Type)
	}
	// It reads no further.
	other := dial(t, ts.addr, true)
	other.send(nplt.SessionList, nil)
	if text := replyText(other.reply()); !strings.Contains(text, conv.ID()[:8]) {
		t.Fatalf("list %q", text)
	}
	// The same user's second big export is over their share of the
	// export budget while the first is held: refused at once, retryable.
	other.send(nplt.SessionExport, []byte(`{"session_id":"`+conv.ID()[:8]+`","format":"md"}`))
	if b, code := exportReply(t, other); code != api.CodeServerBusy || len(b) != 0 {
		t.Fatalf("other big export: %q, %d bytes", code, len(b))
	}
	small := ts.hist.NewOwned(time.Now(), chat.Local().ID)
	if err := small.Append(history.Message{Role: "user", Content: "small one"}); err != nil {
		t.Fatal(err)
	}
	other.send(nplt.SessionExport, []byte(`{"session_id":"`+small.ID()+`","format":"md"}`))
	if b, code := exportReply(t, other); code != "" || !strings.Contains(string(b), "small one") {
		t.Fatalf("other small export: %q, %q", code, b)
	}
}
