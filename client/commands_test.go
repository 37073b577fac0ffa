package client

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestCommands(t *testing.T) {
	sessions := SessionList{Current: "sess-0002-bbbb", Sessions: []SessionInfo{
		{SessionID: "sess-0001-aaaa", Title: "CPU", CreatedAt: "2025-01-01T00:00:00Z", UpdatedAt: "2025-01-01T00:01:00Z", Messages: 4, Uploads: 1},
		{SessionID: "sess-0002-bbbb", Title: "disk", CreatedAt: "2025-01-02T00:00:00Z", UpdatedAt: "2025-01-02T00:01:00Z", Messages: 2},
	}}
	history := History{SessionID: "sess-0003-cccc", Messages: []HistoryMessage{
		{Role: "user", Content: "hi", Time: "2025-01-01T00:00:00Z"},
		{Role: "assistant", Content: "hello", Time: "2025-01-01T00:00:01Z"},
	}, Uploads: []nplt.UploadDonePayload{{FileID: "f1", Filename: "a.log", Size: 3}}}
	models := ModelList{Current: "m1", Models: []string{"m1", "m2"}}

	tests := []struct {
		name        string
		call        func(*Conn, context.Context) (Result, error)
		reqType     nplt.Type
		reqPayload  string
		kind        string
		data        any
		decoded     any // pointer to a zero value of data's type
		wantSession string
	}{
		{"sessions", (*Conn).Sessions, nplt.SessionList, "", KindSessionList, sessions, &SessionList{}, "sess-0002-bbbb"},
		{"sessions page", func(c *Conn, ctx context.Context) (Result, error) { return c.SessionsPage(ctx, "db", 2, "c1.x") }, nplt.SessionList, `{"q":"db","limit":2,"before":"c1.x"}`, KindSessionList, sessions, &SessionList{}, "sess-0002-bbbb"},
		{"new", (*Conn).NewSession, nplt.SessionNew, "", KindSession, sessions.Sessions[1], &SessionInfo{}, "sess-0002-bbbb"},
		{"switch", func(c *Conn, ctx context.Context) (Result, error) { return c.Switch(ctx, "sess-0001") }, nplt.SessionSwitch, `{"session_id":"sess-0001"}`, KindSession, sessions.Sessions[0], &SessionInfo{}, "sess-0001-aaaa"},
		{"delete other", func(c *Conn, ctx context.Context) (Result, error) { return c.Delete(ctx, "sess-0009") }, nplt.SessionDelete, `{"session_id":"sess-0009"}`, KindSession, SessionInfo{SessionID: "sess-0009-zzzz"}, &SessionInfo{}, npltfake.Session},
		{"delete current", func(c *Conn, ctx context.Context) (Result, error) { return c.Delete(ctx, "sess-0001") }, nplt.SessionDelete, `{"session_id":"sess-0001"}`, KindSession, SessionInfo{SessionID: npltfake.Session}, &SessionInfo{}, ""},
		{"history", (*Conn).History, nplt.HistoryRequest, "", KindHistory, history, &History{}, "sess-0003-cccc"},
		{"clear", (*Conn).Clear, nplt.ClearRequest, "", KindCleared, map[string]string{"session_id": npltfake.Session}, &map[string]string{}, npltfake.Session},
		{"model list", func(c *Conn, ctx context.Context) (Result, error) { return c.Model(ctx, "") }, nplt.ModelSwitch, "", KindModels, models, &ModelList{}, npltfake.Session},
		{"model switch", func(c *Conn, ctx context.Context) (Result, error) { return c.Model(ctx, "m2") }, nplt.ModelSwitch, `{"model":"m2"}`, KindModels, ModelList{Current: "m2", Models: models.Models}, &ModelList{}, npltfake.Session},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := npltfake.New(t, func(fc *npltfake.Conn) {
				fc.Handshake()
				f := fc.Expect(tt.reqType)
				if string(f.Payload) != tt.reqPayload {
					fc.Fail("payload %q, want %q", f.Payload, tt.reqPayload)
				}
				fc.Result(tt.kind, tt.data)
				fc.Text("text for " + tt.name)
				fc.End()
				fc.ReadUntilEOF()
			})
			c := dial(t, s, Options{})
			ctx, cancel := testContext(t)
			defer cancel()
			res, err := tt.call(c, ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Kind != tt.kind || res.Text != "text for "+tt.name {
				t.Errorf("result = %q %q", res.Kind, res.Text)
			}
			if err := res.Decode(tt.decoded); err != nil {
				t.Fatal(err)
			}
			if got := reflect.ValueOf(tt.decoded).Elem().Interface(); !reflect.DeepEqual(got, tt.data) {
				t.Errorf("decoded %+v, want %+v", got, tt.data)
			}
			if c.SessionID() != tt.wantSession {
				t.Errorf("SessionID = %q, want %q", c.SessionID(), tt.wantSession)
			}
		})
	}
}

func TestCommandServerError(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionSwitch)
		fc.Error(api.CodeNotFound, "no session abcd")
		fc.End()
		fc.Expect(nplt.SessionList)
		fc.Send(nplt.Result, []byte("{not json"))
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := c.Switch(ctx, "abcd")
	if !errors.Is(err, &ServerError{Code: api.CodeNotFound}) {
		t.Fatalf("err = %v, want not_found", err)
	}
	_, err = c.Sessions(ctx)
	var se *json.SyntaxError
	if !errors.Is(err, ErrProtocol) || !errors.As(err, &se) {
		t.Fatalf("err = %v, want ErrProtocol wrapping a JSON syntax error", err)
	}
	if c.SessionID() != npltfake.Session {
		t.Errorf("SessionID changed to %q by failed commands", c.SessionID())
	}
}

// TestCommandUndecodableSession checks that a session result the client
// cannot read leaves the tracked session alone and is logged, not
// silently ignored.
func TestCommandUndecodableSession(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionSwitch)
		fc.Result(KindSession, "not an object")
		fc.End()
		fc.ReadUntilEOF()
	})
	core, logs := observer.New(zap.WarnLevel)
	c := dial(t, s, Options{Logger: zap.New(core)})
	ctx, cancel := testContext(t)
	defer cancel()
	if _, err := c.Switch(ctx, "sess-0002"); err != nil {
		t.Fatal(err)
	}
	if c.SessionID() != npltfake.Session {
		t.Errorf("SessionID = %q, want %q unchanged", c.SessionID(), npltfake.Session)
	}
	if logs.FilterMessage("no session in result").Len() != 1 {
		t.Errorf("logs = %v, want one warning", logs.All())
	}
}
