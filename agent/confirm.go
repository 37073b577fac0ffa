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
			Risk: string(c.Risk), Reason: c.Reason, Scope: c.Scope, Repeat: c.Repeat,
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
	}
	return tools.ByUser
}

// asker adapts the turn's Responder to tools.Call.AskUser: the ask_user
// tool's Question goes to the chat core, which asks the user.
func asker(r chat.Responder) func(context.Context, tools.Question) (tools.Answered, error) {
	return func(ctx context.Context, q tools.Question) (tools.Answered, error) {
		ans, err := r.AskUser(ctx, chat.Question{
			Question: q.Question, Kind: q.Kind, Options: q.Options,
			AllowCustom: q.AllowCustom, Default: q.Default, Timeout: q.Timeout,
		})
		if err != nil {
			return tools.Answered{}, err
		}
		by := answeredBy(ans.By)
		if ans.By == chat.AnsweredByDefault {
			by = tools.ByDefault
		}
		return tools.Answered{Answer: ans.Answer, Option: ans.Option, By: by}, nil
	}
}
