package client

import (
	"encoding/json"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestChatPermission: a PERMISSION_REQUEST is an EventPermission; the
// handler's answer goes out while the reply is open; a refused answer's
// ERROR is an event, not the turn's failure; grants list and revoke.
func TestChatPermission(t *testing.T) {
	req := api.PermissionRequest{RequestID: "r1", ToolCallID: "c1", Tool: "probe", Args: json.RawMessage(`{"unit":"a"}`), Risk: "sensitive",
		Options: []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny}, ExpiresAt: "2030-01-01T00:00:00Z"}
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", "sess-1")
		fc.SendJSON(nplt.PermissionRequest, req)
		var resp api.PermissionResponse
		fc.ExpectJSON(nplt.PermissionResponse, &resp)
		if resp != (api.PermissionResponse{RequestID: "r1", Decision: api.DecisionAllowSession}) {
			fc.Fail("answer %+v", resp)
		}
		fc.Error(api.CodePermissionAnswered, "already answered")
		fc.Text("ran")
		fc.End()
		fc.Expect(nplt.PermissionGrants)
		fc.Result(KindPermissions, map[string]any{"grants": []Grant{{ID: "g1", Tool: "probe", Scope: "probe:a"}}})
		fc.End()
		var rv map[string]string
		fc.ExpectJSON(nplt.PermissionGrants, &rv)
		if rv["revoke"] != "g1" {
			fc.Fail("revoke %v", rv)
		}
		fc.Result(KindPermissions, map[string]any{"grants": []Grant{}})
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var types []EventType
	err := c.Chat(ctx, "probe a", func(ev Event) {
		types = append(types, ev.Type)
		if ev.Type == EventPermission {
			if ev.Permission.RequestID != "r1" || ev.Permission.Tool != "probe" {
				t.Errorf("permission %+v", ev.Permission)
			}
			if err := c.AnswerPermission(ev.Permission.RequestID, api.DecisionAllowSession); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatalf("Chat: %v (events %v)", err, types)
	}
	if len(types) != 5 || types[1] != EventPermission || types[2] != EventError {
		t.Fatalf("events %v", types)
	}
	gs, err := c.Grants(ctx)
	if err != nil || len(gs) != 1 || gs[0].Scope != "probe:a" {
		t.Fatalf("grants %+v, %v", gs, err)
	}
	if gs, err = c.RevokeGrant(ctx, "g1"); err != nil || len(gs) != 0 {
		t.Fatalf("after revoke %+v, %v", gs, err)
	}
	b, _ := json.Marshal(Event{Type: EventPermission, Permission: req})
	if want := `{"type":"permission_request","permission":{"request_id":"r1"`; string(b[:len(want)]) != want {
		t.Fatalf("JSON %s", b)
	}
}
