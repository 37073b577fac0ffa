package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// permissionTurn plays one chat turn that asks about unit and reports
// the decision the client gave.
func permissionTurn(fc *npltfake.Conn, unit string, decisions chan<- string) {
	fc.Expect(nplt.ChatText)
	fc.Status(api.StatusStreamStart, "", npltfake.Session)
	fc.SendJSON(nplt.PermissionRequest, api.PermissionRequest{RequestID: "req-" + unit, ToolCallID: "call-" + unit, Tool: "command_executor",
		Args: json.RawMessage(`{"command":"systemctl restart ` + unit + `"}`), Risk: "dangerous", Reason: "restarts a service",
		Options: []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny}, ExpiresAt: time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)})
	var resp api.PermissionResponse
	fc.ExpectJSON(nplt.PermissionResponse, &resp)
	if resp.RequestID != "req-"+unit {
		fc.Fail("answer to %q", resp.RequestID)
	}
	decisions <- resp.Decision
	fc.Text("done " + unit)
	fc.End()
}

// TestREPLPermission: the REPL shows the request and answers y, a and n
// as allow_once, allow_session and deny; /permissions lists and revokes.
func TestREPLPermission(t *testing.T) {
	decisions := make(chan string, 3)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		for _, u := range []string{"nginx", "redis", "mysql"} {
			permissionTurn(fc, u, decisions)
		}
		fc.Expect(nplt.PermissionGrants)
		fc.Result(client.KindPermissions, map[string]any{"grants": []client.Grant{{ID: "g1", Tool: "command_executor", Scope: "command_executor:systemctl restart redis"}}})
		fc.End()
		if f := fc.Expect(nplt.PermissionGrants); string(f.Payload) != `{"revoke":"g1"}` {
			fc.Fail("revoke %q", f.Payload)
		}
		fc.Result(client.KindPermissions, map[string]any{"grants": []client.Grant{}})
		fc.End()
		fc.ReadUntilEOF()
	})
	input := "restart nginx\ny\nrestart redis\na\nrestart mysql\nn\n/permissions\n/permissions revoke g1\n/permissions bogus\n/quit\n"
	code, stdout, stderr := runREPL(t, s.Addr, input, nil)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny} {
		if got := <-decisions; got != want {
			t.Errorf("decision %q, want %q", got, want)
		}
	}
	for _, want := range []string{"permission needed: command_executor", "systemctl restart nginx", "risk: dangerous", "restarts a service", "time left: 1m5",
		"[y] allow once", "allowed once", "allowed for this conversation", "denied", "done mysql",
		"g1  command_executor:systemctl restart redis", "revoked g1", "no permissions granted"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "usage: /permissions [revoke ID]") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestAskPermission: "ask --yes" allows once; without it, a stdin that
// is not a terminal denies.
func TestAskPermission(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		says string
	}{
		{[]string{"ask", "--yes", "restart nginx"}, api.DecisionAllowOnce, "--yes"},
		{[]string{"ask", "restart nginx"}, api.DecisionDeny, "stdin is not a terminal"},
		{[]string{"ask", "--json", "restart nginx"}, api.DecisionDeny, "stdin is not a terminal"},
	} {
		decisions := make(chan string, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Upload([]byte("y\n"), "stdin.txt") // piped stdin is an attachment, never an answer
			permissionTurn(fc, "nginx", decisions)
			fc.ReadUntilEOF()
		})
		code, stdout, stderr := runCLI(t, s.Addr, "y\n", tc.args...)
		if code != ExitOK || <-decisions != tc.want || !strings.Contains(stderr, tc.says) || !strings.Contains(stderr, "permission needed") ||
			!strings.Contains(stdout, "done nginx") {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
	}
}

func TestDecisionOf(t *testing.T) {
	for in, want := range map[string]string{"y": api.DecisionAllowOnce, " YES ": api.DecisionAllowOnce, "a": api.DecisionAllowSession,
		"n": api.DecisionDeny, "": api.DecisionDeny, "whatever": api.DecisionDeny} {
		if got := decisionOf(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
