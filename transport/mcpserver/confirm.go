package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/tools"
)

// Elicitation is in the protocol versions from elicitFrom on, and
// server-initiated in those before elicitUntil (from which on MCP asks
// through multi-round-trip results instead).
const (
	elicitFrom  = "2025-06-18"
	elicitUntil = "2026-07-28"
)

// canElicit reports whether the client of ss can be sent an
// elicitation: it asked for a protocol version this server speaks that
// has server-initiated elicitation (2025-06-18 up to 2026-07-28, not
// included; a client asking for another is negotiated to a version it
// did not ask for, and the SDK refuses to elicit from one that asked
// for 2026-07-28 or later), and it declared the elicitation capability
// in form mode (a capability naming neither mode is form, as before
// modes existed).
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	if v := p.ProtocolVersion; v < elicitFrom || v >= elicitUntil || !slices.Contains(supportedVersions(), v) {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// decisionField is the elicitation form's one field.
const decisionField = "decision"

// decisionSchema is the form an elicitation asks the user to fill: one
// decision, the options of a permission request (api.Decision*).
var decisionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		decisionField: map[string]any{
			"type":        "string",
			"title":       "Decision (决定)",
			"description": api.DecisionAllowOnce + ": run this call; " + api.DecisionAllowSession + ": run it and calls like it for the rest of this MCP session; " + api.DecisionDeny + ": refuse it",
			"enum":        []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny},
		},
	},
	"required": []string{decisionField},
}

// confirmer is tools.Call.Confirm for a call of session st over ss: a
// grant of the session answers at once (session_grant); otherwise the
// client is sent an elicitation naming the tool, its arguments as the
// registry shows them (secrets redacted), the risk and the reason, and
// the answer, PermissionTimeout or the call's end decides: the client
// cancelling the call is decided_by "cancel", the session ending (the
// client left, its request went away, the server stops) "disconnect",
// as in a chat. An answer that is not a valid form (the SDK checks it
// against decisionSchema) refuses the call as the user's.
func (s *Server) confirmer(st *session, ss *mcp.ServerSession) func(context.Context, tools.Confirmation) (tools.Confirmed, error) {
	return func(ctx context.Context, c tools.Confirmation) (tools.Confirmed, error) {
		if st.granted(c) {
			return tools.Confirmed{Allowed: true, By: tools.BySessionGrant}, nil
		}
		ectx, cancel := context.WithTimeout(ctx, s.cfg.PermissionTimeout)
		defer cancel()
		res, err := ss.Elicit(ectx, &mcp.ElicitParams{Message: s.question(c), RequestedSchema: decisionSchema})
		switch {
		case ctx.Err() != nil && errors.Is(context.Cause(ctx), errSessionEnded):
			return tools.Confirmed{By: tools.ByDisconnect}, nil
		case ctx.Err() != nil:
			return tools.Confirmed{By: tools.ByCancel}, nil
		case errors.Is(ectx.Err(), context.DeadlineExceeded):
			return tools.Confirmed{By: tools.ByTimeout}, nil
		case errors.Is(err, mcp.ErrConnectionClosed):
			return tools.Confirmed{By: tools.ByDisconnect}, nil
		case err != nil:
			// The client answered, but not with a valid form (or with an
			// error of its own): a refusal, its user's.
			s.log.Info("elicitation answer refused", zap.String("tool", c.Tool), zap.Error(err))
			return tools.Confirmed{By: tools.ByUser}, nil
		}
		switch res.Action {
		case "accept":
		case "cancel":
			return tools.Confirmed{By: tools.ByCancel}, nil
		default: // decline
			return tools.Confirmed{By: tools.ByUser}, nil
		}
		d, _ := res.Content[decisionField].(string)
		allowed, session := api.DecisionAllows(d) // deny, or no decision: refused
		if session {
			st.grant(c)
		}
		return tools.Confirmed{Allowed: allowed, By: tools.ByUser}, nil
	}
}

// question is the elicitation's message: what would run, for whom, why
// the user is asked, and until when.
func (s *Server) question(c tools.Confirmation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "opsassist asks to run %s (允许执行 %s?)\n", c.Tool, c.Tool)
	args := string(c.Args)
	if args == "" {
		args = "{}"
	}
	fmt.Fprintf(&b, "arguments: %s\nrisk: %s\n", args, c.Risk)
	if c.Reason != "" {
		fmt.Fprintf(&b, "why you are asked: %s\n", c.Reason)
	}
	fmt.Fprintf(&b, "%s allows this call, %s also allows calls under %q for the rest of this MCP session, %s refuses it. No answer within %s is a deny.",
		api.DecisionAllowOnce, api.DecisionAllowSession, c.GrantScope(), api.DecisionDeny, s.cfg.PermissionTimeout)
	return b.String()
}
