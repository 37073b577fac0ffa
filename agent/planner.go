package agent

import (
	"context"

	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
)

// Planner decides the next step of a turn.
type Planner interface {
	// Plan returns the next step for the conversation so far. Text the
	// planner produces goes to delta as it is produced (streaming); the
	// returned Step repeats it in full.
	Plan(ctx context.Context, req *PlanRequest, delta func(string) error) (*Step, error)
}

// PlanRequest is the input of one planning step.
type PlanRequest struct {
	// Turn is the user's turn: input, history, uploads, client type.
	Turn *chat.Turn
	// Messages is the conversation: the history, the user's message, then
	// this turn's assistant and tool messages so far.
	Messages []history.Message
	// Tools are the tools the planner may call; empty on the last step,
	// when it must answer.
	Tools []tools.Spec
}

// Step is a planner's decision: text for the user, tool calls, or both.
type Step struct {
	Content   string
	ToolCalls []history.ToolCall
	// Refusal marks a step that declines the request as destructive or
	// not allowed, which a planner that can tell (the builtin) sets; it
	// tells a refusal apart from "I did not understand" or help. Other
	// planners leave it false.
	Refusal bool
}
