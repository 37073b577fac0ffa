package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/tools"
)

// canElicit reports whether the client of ss declared the elicitation
// capability, in form mode (a capability naming neither mode is form,
// as before modes existed).
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
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
// the answer, PermissionTimeout or the call's end decides.
func (s *Server) confirmer(st *session, ss *mcp.ServerSession) func(context.Context, tools.Confirmation) (tools.Confirmed, error) {
	return func(ctx context.Context, c tools.Confirmation) (tools.Confirmed, error) {
		if st.granted(c) {
			return tools.Confirmed{Allowed: true, By: tools.BySessionGrant}, nil
		}
		ectx, cancel := context.WithTimeout(ctx, s.cfg.PermissionTimeout)
		defer cancel()
		res, err := ss.Elicit(ectx, &mcp.ElicitParams{Message: s.question(c), RequestedSchema: decisionSchema})
		switch {
		case ctx.Err() != nil:
			return tools.Confirmed{By: tools.ByCancel}, nil
		case errors.Is(ectx.Err(), context.DeadlineExceeded):
			return tools.Confirmed{By: tools.ByTimeout}, nil
		case err != nil:
			s.log.Info("elicitation failed", zap.String("tool", c.Tool), zap.Error(err))
			return tools.Confirmed{By: tools.ByDisconnect}, fmt.Errorf("asking the MCP client: %w", err)
		}
		switch res.Action {
		case "accept":
		case "cancel":
			return tools.Confirmed{By: tools.ByCancel}, nil
		default: // decline
			return tools.Confirmed{By: tools.ByUser}, nil
		}
		d, _ := res.Content[decisionField].(string)
		switch d {
		case api.DecisionAllowSession:
			st.grant(c)
			return tools.Confirmed{Allowed: true, By: tools.ByUser}, nil
		case api.DecisionAllowOnce:
			return tools.Confirmed{Allowed: true, By: tools.ByUser}, nil
		}
		return tools.Confirmed{By: tools.ByUser}, nil // deny, or no decision
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
