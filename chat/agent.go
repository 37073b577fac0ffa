package chat

import (
	"context"
	"sync"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
)

// Agent produces the reply to one user turn. The core calls it with the
// conversation so far and a Responder; the agent streams status, text and
// offers through the Responder and returns the messages to persist after
// the user's message (assistant messages, tool calls and tool results).
type Agent interface {
	Respond(ctx context.Context, t *Turn, r Responder) ([]history.Message, error)
}

// Turn is the input of one agent call.
type Turn struct {
	// SessionID is the conversation id.
	SessionID string
	// Input is the user's message.
	Input string
	// History is the conversation before Input, oldest first.
	History []history.Message
	// Uploads are the conversation's uploads, oldest first.
	Uploads []history.Upload
	// Model is the model the session selected ("builtin" or a provider).
	Model string
	// ClientType is "cli", "desktop" or "web".
	ClientType string
	// User and Role are who the turn runs for (the session's
	// Principal's Name and Role): the tool layer decides and audits
	// every call by them.
	User, Role string
	// Now is the time the turn started.
	Now time.Time
}

// Responder is how an agent streams its reply. Each method returns an
// error when the client is gone. Its methods are safe for concurrent use
// (parallel tool calls).
type Responder interface {
	Status(typ, content string) error
	Delta(text string) error
	Offer(o api.Offer) error
	// Confirm asks the user to allow a tool call and waits for the
	// answer, its deadline (Config.PermissionTimeout) or ctx, without
	// holding up the connection: the transport delivers the answer
	// (Session.AnswerPermission). No answer is a deny.
	Confirm(ctx context.Context, c Confirmation) (Confirmed, error)
	// AskUser puts a question to the user (the ask_user tool) and waits
	// for the answer, its deadline (Question.Timeout, else
	// Config.PermissionTimeout) or ctx, like Confirm: the transport
	// delivers the answer (Session.AnswerQuestion). A timeout answers
	// with the question's default, if any.
	AskUser(ctx context.Context, q Question) (Answered, error)
}

// ToolResulter is a Responder that can also say how a tool call ended:
// the tool_result status with the call's success and failure code
// (api.ToolResult's Success and Code), so a client can mark a failed
// call as failed. An agent uses it when its Responder has it, else
// Status(api.StatusToolResult, content).
type ToolResulter interface {
	ToolResult(content string, success bool, code string) error
}

// FullResulter is a ToolResulter that can also pass on the complete
// result of a call whose output the model was given shortened
// (Status.Full). An agent uses it, when its Responder has it, for such
// calls.
type FullResulter interface {
	ToolResultFull(content string, success bool, code, full string) error
}

// emitResponder adapts an Emit to Responder, one event at a time.
type emitResponder struct {
	emit  Emit
	asker *asker
}

// newEmitResponder returns the Responder of one turn in conversation
// conv, run for owner.
func (s *Service) newEmitResponder(conv, owner string, emit Emit) emitResponder {
	mu := new(sync.Mutex)
	locked := func(e Event) error {
		mu.Lock()
		defer mu.Unlock()
		return emit(e)
	}
	return emitResponder{emit: locked, asker: &asker{svc: s, conv: conv, owner: owner, emit: locked}}
}

func (r emitResponder) Confirm(ctx context.Context, c Confirmation) (Confirmed, error) {
	return r.asker.confirm(ctx, c)
}

func (r emitResponder) AskUser(ctx context.Context, q Question) (Answered, error) {
	return r.asker.ask(ctx, q)
}

func (r emitResponder) Status(typ, content string) error {
	return r.emit(Event{Kind: KindStatus, Status: &Status{Type: typ, Content: content}})
}

// ToolResult emits the tool_result status with the call's outcome.
func (r emitResponder) ToolResult(content string, success bool, code string) error {
	ok := success
	return r.emit(Event{Kind: KindStatus, Status: &Status{Type: api.StatusToolResult, Content: content, Success: &ok, Code: code}})
}

// ToolResultFull emits the tool_result status with the call's outcome
// and its complete result.
func (r emitResponder) ToolResultFull(content string, success bool, code, full string) error {
	ok := success
	return r.emit(Event{Kind: KindStatus, Status: &Status{Type: api.StatusToolResult, Content: content, Success: &ok, Code: code, Full: full}})
}

func (r emitResponder) Delta(text string) error {
	if text == "" {
		return nil // an empty chunk would end the reply on NPLT
	}
	return r.emit(Event{Kind: KindDelta, Text: text})
}

func (r emitResponder) Offer(o api.Offer) error {
	return r.emit(Event{Kind: KindOffer, Offer: &o})
}
