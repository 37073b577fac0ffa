package cli

import (
	"encoding/json"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestAskDeniesUnasked: ask with stdin not a terminal denies a
// permission request with "reason":"no_terminal" to a server that takes
// it (nplt.FeaturePermissionReason), so the answer says nobody could be
// asked rather than "you declined"; an older server gets a plain deny;
// --yes still allows once, with no reason.
func TestAskDeniesUnasked(t *testing.T) {
	for _, tc := range []struct {
		name             string
		feature          bool
		args             []string
		decision, reason string
	}{
		{"new server", true, []string{"ask", "restart nginx"}, api.DecisionDeny, api.ReasonNoTerminal},
		{"old server", false, []string{"ask", "restart nginx"}, api.DecisionDeny, ""},
		{"--yes", true, []string{"ask", "--yes", "restart nginx"}, api.DecisionAllowOnce, ""},
	} {
		answers := make(chan api.PermissionResponse, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Greet()
			var h nplt.HelloPayload
			fc.ExpectJSON(nplt.Hello, &h)
			features := []string{nplt.FeatureCancel}
			if tc.feature {
				features = append(features, nplt.FeaturePermissionReason)
			}
			fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "fake", Version: "test", SessionID: npltfake.Session, Model: npltfake.Model, MaxUpload: 1 << 20, Features: features})
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.SendJSON(nplt.PermissionRequest, api.PermissionRequest{RequestID: "req-1", ToolCallID: "call-1", Tool: "command_executor",
				Args: json.RawMessage(`{"command":"systemctl","args":["restart","nginx"]}`), Risk: "dangerous", Reason: "restarts a service",
				Options: []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny}, ExpiresAt: time.Now().Add(time.Minute).UTC().Format(time.RFC3339)})
			var resp api.PermissionResponse
			fc.ExpectJSON(nplt.PermissionResponse, &resp)
			answers <- resp
			fc.Text("done")
			fc.End()
			fc.ReadUntilEOF()
		})
		code, _, stderr := runCLI(t, s.Addr, "", tc.args...)
		resp := <-answers
		if code != ExitOK || resp.RequestID != "req-1" || resp.Decision != tc.decision || resp.Reason != tc.reason {
			t.Errorf("%s: exit %d, answer %+v, stderr %q", tc.name, code, resp, stderr)
		}
	}
}
