package tools

import "opsassist/api"

// StatusTexts is an agent status's content (of api.Status* type typ) in
// both languages, for a client to show in its user's: the agent words
// its thinking, generating and tool_result statuses in the question's
// language with
// api's status texts, which are read back here, a failure's reason said
// again from UserText's texts when it is one of them (a raw error stays
// as it is in both). ok is false for other content — a tool call's
// arguments, a newer server's words — which a client shows as sent.
func StatusTexts(typ, content string) (api.Text, bool) {
	switch typ {
	case api.StatusThinking:
		if step, ok := api.ParseThinking(content); ok {
			return api.ThinkingStatus(step), true
		}
	case api.StatusGenerating:
		if api.IsGenerating(content) {
			return api.GeneratingStatus(), true
		}
	case api.StatusToolResult:
		p, ok := api.ParseToolResult(content)
		switch {
		case !ok:
		case !p.Failed:
			return api.ToolDoneStatus(p.Tool, p.MS), true
		default:
			why := api.Text{Zh: p.Why, En: p.Why}
			if zh, ok := UserTextIn(p.Why, p.Tool, true); ok {
				en, _ := UserTextIn(p.Why, p.Tool, false)
				why = api.Text{Zh: zh, En: en}
			}
			return api.ToolFailedStatus(p.Tool, why, p.MS), true
		}
	}
	return api.Text{}, false
}
