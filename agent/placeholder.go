package agent

import (
	"context"
	"fmt"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// Placeholder is a minimal responder for tests of the transports: it does
// not plan or call tools; it acknowledges the message in the user's
// language and says that the agent is not installed. The daemon never
// uses it (it runs Agent over the planners).
type Placeholder struct{}

var _ chat.Agent = Placeholder{}

// Respond streams a short acknowledgement in the user's language.
func (Placeholder) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Status(api.StatusThinking, thinkingText(t.Input)); err != nil {
		return nil, err
	}
	reply := fmt.Sprintf("(placeholder agent) I received: %q. The agent with tools is not installed in this build yet.", t.Input)
	if IsChinese(t.Input) {
		reply = fmt.Sprintf("（占位回复）已收到：「%s」。本版本尚未安装带工具的智能体。", t.Input)
	}
	if err := r.Status(api.StatusGenerating, ""); err != nil {
		return nil, err
	}
	for _, chunk := range Chunks(reply, 16) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := r.Delta(chunk); err != nil {
			return nil, err
		}
	}
	return []history.Message{{Role: "assistant", Content: reply, Time: t.Now}}, nil
}

func thinkingText(in string) string { return api.ThinkingStatus(0).In(IsChinese(in)) }
