package client

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestChatEvents(t *testing.T) {
	asked := make(chan string, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		asked <- string(fc.Expect(nplt.ChatText).Payload)
		fc.ChatReply()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var got []Event
	if err := c.Chat(ctx, "CPU使用率是多少？", func(ev Event) { got = append(got, ev) }); err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Type: EventStreamStart, Status: nplt.Status{Type: api.StatusStreamStart, SessionID: "sess-0002-bbbb"}},
		{Type: EventStatus, Status: nplt.Status{Type: api.StatusThinking, Content: "checking load"}},
		{Type: EventStatus, Status: nplt.Status{Type: api.StatusToolCall, Content: "cpu_usage()"}},
		{Type: EventDelta, Text: "当前 CPU"},
		{Type: EventDelta, Text: "使用率 3.1%"},
		{Type: EventDownloadOffer, Offer: npltfake.Offer},
		{Type: EventEnd},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
	if q := <-asked; q != "CPU使用率是多少？" {
		t.Errorf("server got %q", q)
	}
	if c.SessionID() != "sess-0002-bbbb" {
		t.Errorf("SessionID = %q, want the stream_start session", c.SessionID())
	}
}

func TestChatServerErrorMidReply(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("part")
		fc.Error(api.CodeInternal, "model backend failed")
		fc.End()
		// The connection stays usable.
		fc.Expect(nplt.ChatText)
		fc.Text("ok")
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var types []EventType
	err := c.Chat(ctx, "hi", func(ev Event) { types = append(types, ev.Type) })
	var se *ServerError
	if !errors.As(err, &se) || se.Code != api.CodeInternal || se.Message != "model backend failed" {
		t.Fatalf("err = %v, want internal ServerError", err)
	}
	if !errors.Is(err, &ServerError{Code: api.CodeInternal}) {
		t.Error("errors.Is by code failed")
	}
	want := []EventType{EventStreamStart, EventDelta, EventError, EventEnd}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("events = %v, want %v", types, want)
	}
	if err := c.Chat(ctx, "again", nil); err != nil {
		t.Fatalf("next chat: %v", err)
	}
}

func TestChatRejectsUnsendableMessages(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF() // nothing may be sent
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	if err := c.Chat(ctx, "", nil); !errors.Is(err, ErrEmptyMessage) {
		t.Errorf("empty: err = %v", err)
	}
	if err := c.Chat(ctx, strings.Repeat("x", nplt.MaxPayload+1), nil); !errors.Is(err, nplt.ErrFrameTooLarge) {
		t.Errorf("oversize: err = %v", err)
	}
}

func TestEventJSON(t *testing.T) {
	tests := []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventStreamStart, Status: nplt.Status{Type: "stream_start", SessionID: "s1"}}, `{"type":"stream_start","session_id":"s1"}`},
		{Event{Type: EventStatus, Status: nplt.Status{Type: "tool_call", Content: "df -h <root>"}}, `{"type":"status","status":"tool_call","content":"df -h <root>"}`},
		{Event{Type: EventDelta, Text: "a & b"}, `{"type":"delta","text":"a & b"}`},
		{Event{Type: EventDownloadOffer, Offer: api.Offer{Filename: "f", FileSize: 1, DownloadToken: "t", TransportMode: "rdt"}}, `{"type":"download_offer","offer":{"transport_mode":"rdt","download_token":"t","filename":"f","file_size":1}}`},
		{Event{Type: EventError, Error: &ServerError{Code: "busy", Message: "later"}}, `{"type":"error","code":"busy","message":"later"}`},
		{Event{Type: EventEnd}, `{"type":"end"}`},
	}
	for _, tt := range tests {
		got, err := tt.ev.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
