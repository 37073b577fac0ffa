package npltserver

import (
	"slices"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/nplt"
)

// TestLoopGuardAsksOverNPLT: a model repeating one call is stopped at
// the third; the user is asked in a PERMISSION_REQUEST of its own,
// which the allow_session grant of the ordinary permission does not
// answer; allow_once runs the call (the grant answers the policy's own
// question).
func TestLoopGuardAsksOverNPLT(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("repeat 3 a"))
	p := c.untilPermission()
	if p.ToolCallID != "call-a-1" || strings.Contains(p.Reason, "是否仍要执行") {
		t.Fatalf("first request %+v", p)
	}
	c.answer(p.RequestID, api.DecisionAllowSession) // the second call runs without asking
	p = c.untilPermission()
	// The user's own question, not the text meant for the model.
	if p.ToolCallID != "call-a-3" || !strings.HasPrefix(p.Reason, "模型已第 3 次以相同参数调用 probe。是否仍要执行？") ||
		!strings.HasSuffix(p.Reason, "The model has called probe with the same arguments 3 times. Run it anyway?") || strings.Contains(p.Reason, "Do not call it again") {
		t.Fatalf("loop request %+v", p)
	}
	c.answer(p.RequestID, api.DecisionAllowOnce)
	text := replyText(c.reply())
	if !strings.Contains(text, `call-a-3 {"success":true`) || !slices.Equal(probe.Runs(), []string{"a", "a", "a"}) {
		t.Fatalf("reply %q, runs %v", text, probe.Runs())
	}
}

// TestLoopGuardDenyEndsTurn: denied, the third call does not run and
// the model is told; the fourth, under the same scope, is denied
// without asking, and the turn ends saying the call kept repeating. The
// connection serves the next message.
func TestLoopGuardDenyEndsTurn(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("repeat 6 b"))
	c.answer(c.untilPermission().RequestID, api.DecisionAllowSession)
	p := c.untilPermission()
	if p.ToolCallID != "call-b-3" {
		t.Fatalf("loop request %+v", p)
	}
	c.answer(p.RequestID, api.DecisionDeny)
	fs := c.reply()
	for _, f := range fs {
		if f.Type == nplt.PermissionRequest {
			t.Fatalf("asked again: %q", f.Payload)
		}
	}
	text := replyText(fs)
	if !strings.Contains(text, `The same call kept repeating and was stopped: probe {"unit":"b"}`) || !slices.Equal(probe.Runs(), []string{"b", "b"}) {
		t.Fatalf("reply %q, runs %v", text, probe.Runs())
	}
	c.send(nplt.ChatText, []byte("hello"))
	if text := replyText(c.reply()); text != "ok" {
		t.Fatalf("next reply %q", text)
	}
}
