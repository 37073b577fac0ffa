package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
)

// TestHTTPLoopGuardGrant: the loop guard's question is a permission
// request of its own; allow_session of it is a grant of that exact
// repeat (scope loop_guard:probe:{"unit":"c"}), listed beside the
// ordinary one, and answers the same repeat in the next turn without
// asking.
func TestHTTPLoopGuardGrant(t *testing.T) {
	env, probe := askEnv(t, time.Minute)
	st := env.startChat(t, map[string]string{"message": "repeat 3 c"})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	base := "/api/sessions/" + sid + "/permissions/"
	for i, wantLoop := range []bool{false, true} {
		_, raw := st.until(api.EventPermissionRequest, nil)
		var p api.PermissionRequest
		if err := json.Unmarshal([]byte(raw), &p); err != nil || strings.Contains(p.Reason, "The model has called probe with the same arguments 3 times. Run it anyway?") != wantLoop ||
			strings.Contains(p.Reason, "Do not call it again") {
			t.Fatalf("request %d: %s %v", i, raw, err)
		}
		if res, body := env.do(t, "POST", base+p.RequestID, map[string]string{"decision": api.DecisionAllowSession}); res.StatusCode != http.StatusOK {
			t.Fatalf("answer %d: %d %s", i, res.StatusCode, body)
		}
	}
	st.until(api.EventEnd, nil)
	var list struct {
		Grants []chat.Grant `json:"grants"`
	}
	res, body := env.do(t, "GET", "/api/sessions/"+sid+"/permissions", nil)
	decode(t, body, &list)
	if res.StatusCode != http.StatusOK || len(list.Grants) != 2 || list.Grants[0].Scope != "probe:c" || list.Grants[1].Scope != `loop_guard:probe:{"unit":"c"}` {
		t.Fatalf("grants %d %s", res.StatusCode, body)
	}

	st = env.startChat(t, map[string]string{"message": "repeat 3 c", "session_id": sid})
	var text strings.Builder
	for {
		ev, _, ok := st.next()
		if !ok {
			t.Fatal("stream ended without end")
		}
		if ev.Type == api.EventPermissionRequest {
			t.Fatalf("asked in the second turn: %v", ev.Data)
		}
		if ev.Type == api.EventDelta {
			text.WriteString(ev.Data["text"].(string))
		}
		if ev.Type == api.EventEnd {
			break
		}
	}
	if n := len(probe.Runs()); n != 6 || !strings.Contains(text.String(), `call-c-3 {"success":true`) {
		t.Fatalf("runs %d, reply %q", n, text.String())
	}
}
