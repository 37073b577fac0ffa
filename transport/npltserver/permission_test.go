package npltserver

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
	"opsassist/nplt"
)

// askServer starts a server whose agent asks before every probe call.
func askServer(t *testing.T, timeout time.Duration) (*testServer, *asktest.Tool) {
	t.Helper()
	a, probe, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) {
		cc.Agent = a
		cc.PermissionTimeout = timeout
	})
	return ts, probe
}

// untilPermission reads frames up to the next PERMISSION_REQUEST.
func (c *client) untilPermission() api.PermissionRequest {
	c.t.Helper()
	for {
		f := c.read()
		switch f.Type {
		case nplt.PermissionRequest:
			var p api.PermissionRequest
			if err := json.Unmarshal(f.Payload, &p); err != nil {
				c.t.Fatal(err)
			}
			return p
		case nplt.ChatText:
			if len(f.Payload) == 0 {
				c.t.Fatal("the reply ended without a permission request")
			}
		}
	}
}

func (c *client) answer(id, decision string) {
	c.t.Helper()
	c.sendJSON(nplt.PermissionResponse, api.PermissionResponse{RequestID: id, Decision: decision})
}

// TestPermissionAllowOnce: the request goes out inside the reply with
// its options and expiry; allow_once runs the call and the model sees
// its result.
func TestPermissionAllowOnce(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()
	if p.Tool != "probe" || p.ToolCallID != "call-a" || p.Risk != "sensitive" || p.Reason == "" || len(p.RequestID) < 32 ||
		!slices.Equal(p.Options, []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny}) || !strings.Contains(string(p.Args), `"a"`) {
		t.Fatalf("request = %+v", p)
	}
	if exp, err := time.Parse(time.RFC3339, p.ExpiresAt); err != nil || exp.Before(time.Now()) {
		t.Fatalf("expires_at %q: %v", p.ExpiresAt, err)
	}
	// The reason in both languages for old clients, and each alone.
	if p.Reason != asktest.ReasonZh+asktest.ReasonEn || p.ReasonZh != asktest.ReasonZh || p.ReasonEn != asktest.ReasonEn {
		t.Fatalf("reasons %q, zh %q, en %q", p.Reason, p.ReasonZh, p.ReasonEn)
	}
	c.answer(p.RequestID, api.DecisionAllowOnce)
	text := replyText(c.reply())
	if !strings.Contains(text, `call-a {"success":true`) || !slices.Equal(probe.Runs(), []string{"a"}) {
		t.Fatalf("reply %q, runs %v", text, probe.Runs())
	}
	// Answered once: a second answer is refused with an ERROR alone.
	c.answer(p.RequestID, api.DecisionAllowOnce)
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodePermissionAnswered {
		t.Fatalf("second answer: code %q", code)
	}
}

// TestPermissionDenyTimeoutDisconnect: deny and no answer both refuse
// the call and tell the model; a late answer is expired; a client that
// leaves denies its pending request.
func TestPermissionDenyTimeoutDisconnect(t *testing.T) {
	t.Run("deny", func(t *testing.T) {
		ts, probe := askServer(t, time.Minute)
		c := dial(t, ts.addr, true)
		c.send(nplt.ChatText, []byte("probe a"))
		c.answer(c.untilPermission().RequestID, api.DecisionDeny)
		text := replyText(c.reply())
		if !strings.Contains(text, "declined") || len(probe.Runs()) != 0 {
			t.Fatalf("reply %q, runs %v", text, probe.Runs())
		}
	})
	t.Run("timeout", func(t *testing.T) {
		ts, probe := askServer(t, 50*time.Millisecond)
		c := dial(t, ts.addr, true)
		c.send(nplt.ChatText, []byte("probe a"))
		p := c.untilPermission()
		text := replyText(c.reply())
		if !strings.Contains(text, "did not answer") || len(probe.Runs()) != 0 {
			t.Fatalf("reply %q, runs %v", text, probe.Runs())
		}
		c.answer(p.RequestID, api.DecisionAllowOnce)
		if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodePermissionExpired {
			t.Fatalf("late answer: code %q", code)
		}
	})
	t.Run("disconnect", func(t *testing.T) {
		ts, probe := askServer(t, time.Minute)
		c := dial(t, ts.addr, true)
		c.send(nplt.ChatText, []byte("probe a"))
		p := c.untilPermission()
		c.nc.Close()
		var conv string
		waitFor(t, "the turn to be recorded", func() bool {
			for _, s := range ts.svc.List(chat.Local()) {
				conv = s.ID
				return true
			}
			return false
		})
		// The turn ended with the connection (nothing more is recorded
		// of it); its request was closed as a deny, never run.
		se := ts.svc.NewSession(api.ClientCLI, chat.Local())
		if _, err := se.Switch(conv); err != nil {
			t.Fatal(err)
		}
		if err := se.AnswerPermission(p.RequestID, api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionExpired) || len(probe.Runs()) != 0 {
			t.Fatalf("answer after disconnect: %v, runs %v", err, probe.Runs())
		}
	})
}

// TestPermissionAllowSession: allow_session is not asked again for the
// same scope in the conversation, is asked for another, is listed and,
// once revoked, asked again.
func TestPermissionAllowSession(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	c.answer(c.untilPermission().RequestID, api.DecisionAllowSession)
	c.reply()
	if fs := c.chat("probe a"); slices.ContainsFunc(fs, func(f nplt.Frame) bool { return f.Type == nplt.PermissionRequest }) ||
		!strings.Contains(replyText(fs), `call-a {"success":true`) {
		t.Fatalf("asked again for the granted scope: %q", replyText(fs))
	}
	c.send(nplt.ChatText, []byte("probe b"))
	if p := c.untilPermission(); p.ToolCallID != "call-b" {
		t.Fatalf("request %+v", p)
	} else {
		c.answer(p.RequestID, api.DecisionDeny)
	}
	c.reply()
	if !slices.Equal(probe.Runs(), []string{"a", "a"}) {
		t.Fatalf("runs %v", probe.Runs())
	}

	c.send(nplt.PermissionGrants, nil)
	var list struct {
		Grants []chat.Grant `json:"grants"`
	}
	if kind := result(t, c.reply(), &list); kind != "permissions" || len(list.Grants) != 1 || list.Grants[0].Scope != "probe:a" {
		t.Fatalf("%s %+v", kind, list)
	}
	c.sendJSON(nplt.PermissionGrants, map[string]string{"revoke": list.Grants[0].ID})
	if result(t, c.reply(), &list); len(list.Grants) != 0 {
		t.Fatalf("after revoking: %+v", list)
	}
	c.sendJSON(nplt.PermissionGrants, map[string]string{"revoke": "nope"})
	if code := errorCode(t, c.reply()); code != api.CodeNotFound {
		t.Fatalf("revoking an unknown grant: %q", code)
	}
	for _, bad := range []string{`{"revoke":""}`, `{`, `[]`, `{"revoke":"x"} x`} {
		c.send(nplt.PermissionGrants, []byte(bad))
		if code := errorCode(t, c.reply()); code != api.CodeBadJSON {
			t.Fatalf("%s: code %q", bad, code)
		}
	}
	c.send(nplt.ChatText, []byte("probe a"))
	c.answer(c.untilPermission().RequestID, api.DecisionDeny) // asked again
	c.reply()
}

// TestPermissionTwoPendingReverseOrder: two calls of one step ask at
// once; answered in reverse order, each gets its own answer.
func TestPermissionTwoPendingReverseOrder(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a b"))
	p1, p2 := c.untilPermission(), c.untilPermission()
	// The calls run concurrently: their requests arrive in either order.
	ids := []string{p1.ToolCallID, p2.ToolCallID}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"call-a", "call-b"}) || p1.RequestID == p2.RequestID {
		t.Fatalf("requests %+v %+v", p1, p2)
	}
	decision := map[string]string{"call-a": api.DecisionDeny, "call-b": api.DecisionAllowOnce}
	c.answer(p2.RequestID, decision[p2.ToolCallID])
	c.answer(p1.RequestID, decision[p1.ToolCallID])
	text := replyText(c.reply())
	if !strings.Contains(text, `call-b {"success":true`) || !strings.Contains(text, "call-a") || !strings.Contains(text, "declined") ||
		!slices.Equal(probe.Runs(), []string{"b"}) {
		t.Fatalf("reply %q, runs %v", text, probe.Runs())
	}
}

// TestPermissionConnectionLiveWhileWaiting: while a request waits, PING,
// the published heartbeat, HISTORY_REQUEST and a bad answer are answered
// at once, inside the open reply; the turn still waits for its answer.
func TestPermissionConnectionLiveWhileWaiting(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.chat("hello") // some history
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()

	c.send(nplt.Ping, []byte("x"))
	if f := c.read(); f.Type != nplt.Pong || string(f.Payload) != "x" {
		t.Fatalf("PING answered with %v %q", f.Type, f.Payload)
	}
	c.send(nplt.ChatText, []byte(nplt.HeartbeatText))
	if f := c.read(); f.Type != nplt.ChatText || string(f.Payload) != nplt.HeartbeatText {
		t.Fatalf("heartbeat answered with %v %q", f.Type, f.Payload)
	}
	c.send(nplt.HistoryRequest, nil)
	f := c.read()
	var h struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if f.Type != nplt.Result || result(t, []nplt.Frame{f}, &h) != "history" || len(h.Messages) != 2 {
		t.Fatalf("history answered with %v %q", f.Type, f.Payload)
	}
	for _, tc := range []struct {
		payload, code string
	}{
		{`{"request_id":"nope","decision":"allow_once"}`, api.CodePermissionUnknown},
		{`{"request_id":"` + p.RequestID + `","decision":"always"}`, api.CodeBadDecision},
		{`{"request_id":"` + p.RequestID + `"`, api.CodeBadJSON},
		{`{"decision":"deny"}`, api.CodeBadJSON},
		{`{"request_id":"` + strings.Repeat("x", 2000) + `","decision":"deny"}`, api.CodeTooLarge},
	} {
		c.send(nplt.PermissionResponse, []byte(tc.payload))
		if f := c.read(); f.Type != nplt.Error || errorCode(t, []nplt.Frame{f}) != tc.code {
			t.Fatalf("%.60s: %v %q", tc.payload, f.Type, f.Payload)
		}
	}
	c.answer(p.RequestID, api.DecisionAllowOnce)
	if text := replyText(c.reply()); !strings.Contains(text, `"success":true`) {
		t.Fatalf("reply %q", text)
	}
}

// TestPermissionOtherConnection: another connection (another
// conversation) cannot answer the request: unknown id.
func TestPermissionOtherConnection(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()
	other := dial(t, ts.addr, true)
	other.answer(p.RequestID, api.DecisionAllowOnce)
	if code := errorCode(t, []nplt.Frame{other.read()}); code != api.CodePermissionUnknown {
		t.Fatalf("code %q", code)
	}
	c.answer(p.RequestID, api.DecisionDeny)
	c.reply()
}

// TestPermissionPublishedClient: a client without HELLO cannot be asked;
// the call is refused at once and the model told why.
func TestPermissionPublishedClient(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, false)
	fs := c.chat("probe a")
	if slices.ContainsFunc(fs, func(f nplt.Frame) bool { return f.Type == nplt.PermissionRequest }) ||
		!strings.Contains(replyText(fs), "cannot answer permission requests") || len(probe.Runs()) != 0 {
		t.Fatalf("reply %q", replyText(fs))
	}
}

// TestPermissionResponsePublished: a published client's answer is
// refused as a whole reply, which it can read.
func TestPermissionResponsePublished(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, false)
	c.send(nplt.PermissionResponse, []byte(`{"request_id":"x","decision":"deny"}`))
	if text := replyText(c.reply()); !strings.Contains(text, api.CodePermissionUnknown) {
		t.Fatalf("reply %q", text)
	}
}

// TestPermissionUploadWhileWaiting: an upload completed while a request
// waits is stored at once and confirmed by UPLOAD_DONE inside the reply.
func TestPermissionUploadWhileWaiting(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "notes.txt", Size: 3})
	c.send(nplt.FileData, []byte("abc"))
	for {
		f := c.read()
		if f.Type == nplt.UploadProgress {
			continue
		}
		var d nplt.UploadDonePayload
		if f.Type != nplt.UploadDone || json.Unmarshal(f.Payload, &d) != nil || d.Filename != "notes.txt" {
			t.Fatalf("want UPLOAD_DONE, got %v %q", f.Type, f.Payload)
		}
		break
	}
	c.answer(p.RequestID, api.DecisionDeny)
	c.reply()
	fs := c.chat("hello")
	if replyText(fs) != "ok" {
		t.Fatalf("reply %q", replyText(fs))
	}
	c.send(nplt.HistoryRequest, nil)
	var h struct {
		Uploads []json.RawMessage `json:"uploads"`
	}
	if result(t, c.reply(), &h); len(h.Uploads) != 1 {
		t.Fatalf("uploads %d", len(h.Uploads))
	}
}
