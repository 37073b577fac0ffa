package npltserver

import (
	"encoding/json"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/nplt"
)

// TestPermissionDeniedUnasked: a deny with "reason":"no_terminal" (a
// client with no one to ask, such as ask with stdin not a terminal)
// refuses the call as one nobody could be asked about — code
// no_confirmation, never "the user declined"; a reason that is not
// no_terminal, or one on another decision, is refused with bad_request
// and leaves the request open; an unknown id and a replayed answer are
// refused as without a reason; HELLO announces the feature.
func TestPermissionDeniedUnasked(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	c := greeted(t, nc, false)
	c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "test", Version: "1", ClientType: "cli"})
	var h nplt.HelloReply
	if f := c.read(); f.Type != nplt.Hello || json.Unmarshal(f.Payload, &h) != nil || !slices.Contains(h.Features, nplt.FeaturePermissionReason) {
		t.Fatalf("hello %v %s", f.Type, f.Payload)
	}
	deny := func(id, decision, reason string) {
		c.sendJSON(nplt.PermissionResponse, api.PermissionResponse{RequestID: id, Decision: decision, Reason: reason})
	}
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()
	for _, bad := range []struct{ decision, reason string }{{api.DecisionAllowOnce, api.ReasonNoTerminal}, {api.DecisionDeny, "sleepy"}, {api.DecisionDeny, strings.Repeat("x", 2000)}} {
		deny(p.RequestID, bad.decision, bad.reason)
		if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodeBadRequest && code != api.CodeTooLarge {
			t.Fatalf("%+v: code %q", bad, code)
		}
	}
	deny("no-such-request", api.DecisionDeny, api.ReasonNoTerminal)
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodePermissionUnknown {
		t.Fatalf("unknown id: code %q", code)
	}
	deny(p.RequestID, api.DecisionDeny, api.ReasonNoTerminal)
	text := replyText(c.reply())
	if !strings.Contains(text, `"code":"no_confirmation"`) || strings.Contains(text, "declined") || len(probe.Runs()) != 0 {
		t.Fatalf("reply %q, runs %v", text, probe.Runs())
	}
	deny(p.RequestID, api.DecisionDeny, api.ReasonNoTerminal)
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodePermissionAnswered {
		t.Fatalf("replayed: code %q", code)
	}
}
