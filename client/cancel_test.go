package client

import (
	"errors"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestCancelDuringChat: Cancel sends CANCEL while Chat reads the reply,
// and Chat returns nil once the server ends it.
func TestCancelDuringChat(t *testing.T) {
	streaming := make(chan struct{})
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("partial")
		close(streaming)
		if f := fc.Expect(nplt.Cancel); len(f.Payload) != 0 {
			fc.Fail("CANCEL payload %q", f.Payload)
		}
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var text string
	err := c.Chat(ctx, "long", func(ev Event) {
		if ev.Type == EventDelta {
			text += ev.Text
			<-streaming
			if err := c.Cancel(); err != nil {
				t.Errorf("Cancel: %v", err)
			}
		}
	})
	if err != nil || text != "partial" {
		t.Fatalf("Chat = %v, text %q", err, text)
	}
}

// TestCancelUnsupported: a server that did not announce the feature is
// not sent CANCEL.
func TestCancelUnsupported(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Greet()
		fc.ExpectJSON(nplt.Hello, new(nplt.HelloPayload))
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "old", SessionID: npltfake.Session})
		fc.ExpectClose() // fails the test on any frame
	})
	c := dial(t, s, Options{})
	if err := c.Cancel(); !errors.Is(err, ErrCancelUnsupported) {
		t.Fatalf("Cancel = %v", err)
	}
}
