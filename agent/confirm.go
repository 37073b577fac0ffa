package agent

import (
	"context"

	"opsassist/chat"
	"opsassist/tools"
)

// confirmer adapts the turn's Responder to tools.Call.Confirm: the tool
// layer's Confirmation goes to the chat core, which asks the user, and
// its answer comes back as the tool layer's Confirmed.
func confirmer(r chat.Responder) func(context.Context, tools.Confirmation) (tools.Confirmed, error) {
	return func(ctx context.Context, c tools.Confirmation) (tools.Confirmed, error) {
		ans, err := r.Confirm(ctx, chat.Confirmation{
			ToolCallID: c.ToolCallID, Tool: c.Tool, Args: c.Args,
			Risk: string(c.Risk), Reason: c.Reason, ReasonText: c.ReasonText, Scope: c.Scope, Key: c.GrantKey(), Repeat: c.Repeat,
		})
		if err != nil {
			return tools.Confirmed{}, err
		}
		return tools.Confirmed{Allowed: ans.Allowed, By: answeredBy(ans.By)}, nil
	}
}

// answeredBy maps the core's AnsweredBy* onto the tool layer's By*.
func answeredBy(by string) string {
	switch by {
	case chat.AnsweredBySessionGrant:
		return tools.BySessionGrant
	case chat.AnsweredByTimeout:
		return tools.ByTimeout
	case chat.AnsweredByDisconnect:
		return tools.ByDisconnect
	case chat.AnsweredByCancel:
		return tools.ByCancel
	case chat.AnsweredByNoClient:
		return tools.DecidedByNoClient
	}
	return tools.ByUser
}

// asker is the turn's Responder as tools.Call.AskUser: the ask_user
// tool's Question (api.UserQuestion) goes to the chat core, which asks
// the user; its answer's By values are the tool layer's too (chat's
// AnsweredBy* and tools' By* are the same words; TestAnsweredBySameWords).
func asker(r chat.Responder) func(context.Context, tools.Question) (tools.Answered, error) {
	return r.AskUser
}
