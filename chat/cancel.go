package chat

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
)

// ErrCancelled is the cause (context.Cause) of a turn's context once the
// user cancelled the turn (Session.Cancel, Service.Cancel). Code that
// waits inside a turn — the model request, a running tool, a pending
// permission request or question — ends on that context's Done and may
// tell a cancel from a disconnect by this cause.
var ErrCancelled = errors.New("chat: turn cancelled by the user")

// turnCancels is the registry of running turns: conversation id → the cancel
// func of its turn's context. Turns in one conversation are serialised
// (lockTurn), so there is at most one per conversation.
type turnCancels struct {
	mu      sync.Mutex
	running map[string]context.CancelCauseFunc
}

// beginTurn derives the context of conversation id's turn from ctx and
// registers it so Cancel can end it; end unregisters it and releases the
// context. Call it with the conversation's turn lock held.
func (s *Service) beginTurn(ctx context.Context, id string) (turnCtx context.Context, end func()) {
	turnCtx, cancel := context.WithCancelCause(ctx)
	s.cancels.mu.Lock()
	if s.cancels.running == nil {
		s.cancels.running = make(map[string]context.CancelCauseFunc)
	}
	s.cancels.running[id] = cancel
	s.cancels.mu.Unlock()
	return turnCtx, func() {
		s.cancels.mu.Lock()
		delete(s.cancels.running, id)
		s.cancels.mu.Unlock()
		cancel(context.Canceled)
	}
}

// cancelTurn cancels conversation id's running turn with ErrCancelled
// and reports whether there was one.
func (s *Service) cancelTurn(id string) bool {
	s.cancels.mu.Lock()
	cancel, ok := s.cancels.running[id]
	s.cancels.mu.Unlock()
	if ok {
		cancel(ErrCancelled)
	}
	return ok
}

// Cancel stops the turn running in conversation convID, on behalf of
// who: the turn's context is cancelled with ErrCancelled, so the model
// request, running tools and pending questions end; the turn then
// records the answer streamed so far as cancelled and emits End. It
// reports whether a turn was running; cancelling a conversation without
// one is harmless and reports false. A conversation who may not see (or
// that does not exist) is an *Error with api.CodeNotFound, so a
// principal cannot probe for others' conversations.
func (s *Service) Cancel(who Principal, convID string) (bool, error) {
	c, err := s.cfg.History.Get(convID)
	if err != nil {
		s.mu.Lock()
		c = s.live[convID]
		s.mu.Unlock()
	}
	if c == nil || !who.Sees(c.Owner()) {
		return false, &Error{Code: api.CodeNotFound, Err: errors.New("conversation not found: " + convID)}
	}
	return s.cancelTurn(convID), nil
}

// Cancel stops the turn running in the session's current conversation,
// whichever connection or request started it (Service.Cancel), and
// reports whether there was one. A session may only reach conversations
// its principal sees, so no owner check is needed.
func (se *Session) Cancel() bool { return se.svc.cancelTurn(se.current().ID()) }

// userCancelled reports whether ctx, a turn's context, ended by Cancel.
func userCancelled(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrCancelled)
}

// partialResponder passes an agent's events on and keeps the text
// streamed so far, which a cancelled turn records as its answer.
type partialResponder struct {
	Responder
	mu   sync.Mutex
	text strings.Builder
}

// Delta streams text and keeps it.
func (p *partialResponder) Delta(text string) error {
	p.mu.Lock()
	p.text.WriteString(text)
	p.mu.Unlock()
	return p.Responder.Delta(text)
}

// ToolResult passes a tool call's outcome on when the wrapped Responder
// reports outcomes, else the plain tool_result status.
func (p *partialResponder) ToolResult(content string, success bool, code string) error {
	if tr, ok := p.Responder.(ToolResulter); ok {
		return tr.ToolResult(content, success, code)
	}
	return p.Responder.Status(api.StatusToolResult, content)
}

// ToolResultFull passes a call's outcome and complete result on when the
// wrapped Responder takes them, else its outcome (ToolResult).
func (p *partialResponder) ToolResultFull(content string, success bool, code, full string) error {
	if fr, ok := p.Responder.(FullResulter); ok {
		return fr.ToolResultFull(content, success, code, full)
	}
	return p.ToolResult(content, success, code)
}

// streamed returns the text streamed so far.
func (p *partialResponder) streamed() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.text.String()
}

// notRunResult is the tool result a cancelled turn records for a call
// it never ran, in the shape of a failed call's result.
const notRunResult = `{"success":false,"error":"not run: the user cancelled the turn before this call ran","duration_ms":0}`

// cancelledAnswer is what a cancelled turn records after the user's
// message: the agent's messages of the steps it took (agent, what
// Respond returned with its error) — so the model's next turn knows
// which calls ran and what they returned — then one assistant message,
// marked Cancelled, holding the text streamed after them. The history
// stays well formed for a planner: every tool call of an assistant
// message gets exactly one tool message right after it, a call that
// never ran one saying so (notRunResult); tool messages answering no
// call are dropped.
func cancelledAnswer(agent []history.Message, streamed string, now time.Time) []history.Message {
	var (
		out  []history.Message
		said strings.Builder
		open []history.ToolCall      // calls of the last assistant message
		got  = make(map[string]bool) // of those, the ones with a result
	)
	closeCalls := func() {
		for _, tc := range open {
			if !got[tc.ID] {
				out = append(out, history.Message{Role: "tool", ToolCallID: tc.ID, Name: tc.Name, Content: notRunResult, Time: now})
			}
		}
		open = nil
		clear(got)
	}
	for _, m := range agent {
		switch m.Role {
		case "assistant":
			closeCalls()
			m.Cancelled = false
			out = append(out, m)
			said.WriteString(m.Content)
			open = m.ToolCalls
		case "tool":
			if !slices.ContainsFunc(open, func(tc history.ToolCall) bool { return tc.ID == m.ToolCallID }) || got[m.ToolCallID] {
				continue
			}
			got[m.ToolCallID] = true
			out = append(out, m)
		}
	}
	closeCalls()
	rest := streamed
	if p := said.String(); strings.HasPrefix(streamed, p) {
		rest = streamed[len(p):]
	}
	return append(out, history.Message{Role: "assistant", Content: rest, Cancelled: true, Time: now})
}
