package chat

import (
	"context"
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
	// Now is the time the turn started.
	Now time.Time
}

// Responder is how an agent streams its reply. Each method returns an
// error when the client is gone.
type Responder interface {
	Status(typ, content string) error
	Delta(text string) error
	Offer(o api.Offer) error
}

// emitResponder adapts an Emit to Responder.
type emitResponder struct{ emit Emit }

func (r emitResponder) Status(typ, content string) error {
	return r.emit(Event{Kind: KindStatus, Status: &Status{Type: typ, Content: content}})
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
