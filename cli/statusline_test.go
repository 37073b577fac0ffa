package cli

import (
	"bytes"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/nplt"
	"opsassist/tools"
)

// TestStatusLinesFollowLocale: the agent's status lines are the CLI's
// UI: whatever language the question (and so the server's status text)
// was in, they are shown in the CLI's locale — thinking, a call done, a
// call failed with one of the tools' reasons; a raw error and a tool
// call's arguments are shown as sent. The answer text is untouched.
func TestStatusLinesFollowLocale(t *testing.T) {
	denied := func(zh bool) string {
		return api.ToolFailedStatus("command_executor", api.Text{Zh: tools.UserText(tools.CodeDenied, "command_executor", true),
			En: tools.UserText(tools.CodeDenied, "command_executor", false)}, 3).In(zh)
	}
	var events []client.Event
	for _, zh := range []bool{true, false} { // a Chinese question, then an English one
		for _, st := range []nplt.Status{
			{Type: api.StatusThinking, Content: api.ThinkingStatus(1).In(zh)},
			{Type: api.StatusThinking, Content: api.ThinkingStatus(0).In(zh)},
			{Type: api.StatusToolCall, Content: `sys_monitor {"resources":["cpu"]}`},
			{Type: api.StatusToolResult, Content: api.ToolDoneStatus("sys_monitor", 12).In(zh)},
			{Type: api.StatusToolResult, Content: denied(zh)},
			{Type: api.StatusToolResult, Content: api.ToolFailedStatus("mcp__fs__read", api.Text{Zh: "EOF", En: "EOF"}, 40).In(zh)},
			{Type: api.StatusThinking, Content: "a newer server's words"},
		} {
			events = append(events, client.Event{Type: client.EventStatus, Status: st})
		}
		events = append(events, client.Event{Type: client.EventDelta, Text: pick(zh, "答案。\n", "The answer.\n")})
	}
	for _, lang := range []string{"en", "zh"} {
		var out bytes.Buffer
		r := &textRenderer{out: &out, status: &out, zh: lang == "zh"}
		for _, ev := range events {
			r.handle(ev)
		}
		golden(t, "status_lines_"+lang, out.Bytes())
	}
}
