package testkit

import (
	"context"
	"strings"
	"sync"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// DefaultParts is what a zero Scripted streams.
var DefaultParts = []string{"CPU ", "使用率 ", "12.5%"}

// Scripted is a chat.Agent that answers every turn alike: a thinking
// status ("thinking"), Parts as deltas (DefaultParts when nil), then the
// offer Offer returns for the turn, if any. It then fails with Err, when
// set; otherwise the recorded answer is the parts joined.
type Scripted struct {
	Parts []string
	Offer func(t *chat.Turn) *api.Offer
	Err   error
}

var _ chat.Agent = Scripted{}

// Respond streams the script.
func (a Scripted) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Status(api.StatusThinking, "thinking"); err != nil {
		return nil, err
	}
	parts := a.Parts
	if parts == nil {
		parts = DefaultParts
	}
	for _, part := range parts {
		if err := r.Delta(part); err != nil {
			return nil, err
		}
	}
	if a.Offer != nil {
		if o := a.Offer(t); o != nil {
			if err := r.Offer(*o); err != nil {
				return nil, err
			}
		}
	}
	if a.Err != nil {
		return nil, a.Err
	}
	return []history.Message{{Role: "assistant", Content: strings.Join(parts, ""), Time: t.Now}}, nil
}

// Blocking is a chat.Agent whose turn waits: it sends Status as a
// thinking status and Before as a delta (each when not empty), closes
// Started, then waits for Release or the end of the turn's context. On
// release it streams After and records Before+After; on the context's
// end it closes Cancelled (when not nil) and returns the context's
// error. Serve one turn with it: Started is closed once.
type Blocking struct {
	Status        string
	Before, After string
	Started       chan struct{}
	Release       chan struct{}
	Cancelled     chan struct{}
}

var _ chat.Agent = (*Blocking)(nil)

// NewBlocking returns a Blocking with its three channels made.
func NewBlocking() *Blocking {
	return &Blocking{Started: make(chan struct{}), Release: make(chan struct{}), Cancelled: make(chan struct{})}
}

// Respond blocks as described on Blocking.
func (a *Blocking) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if a.Status != "" {
		r.Status(api.StatusThinking, a.Status)
	}
	if a.Before != "" {
		r.Delta(a.Before)
	}
	close(a.Started)
	select {
	case <-a.Release:
	case <-ctx.Done():
		if a.Cancelled != nil {
			close(a.Cancelled)
		}
		return nil, ctx.Err()
	}
	if a.After != "" {
		r.Delta(a.After)
	}
	return []history.Message{{Role: "assistant", Content: a.Before + a.After, Time: t.Now}}, nil
}

// Panicking is a chat.Agent that panics in the middle of a turn, after a
// thinking status, with a runtime error (a write to a nil map), as the
// offline planner's argument handling once did.
type Panicking struct{}

var _ chat.Agent = Panicking{}

// Respond panics.
func (Panicking) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	r.Status(api.StatusThinking, "…")
	var m map[string]int
	m[t.Input]++
	return nil, nil
}

// Switchable is a chat.Agent that hands each turn to the agent last
// set, so a test can change the agent while a server runs.
type Switchable struct {
	mu sync.Mutex
	a  chat.Agent
}

var _ chat.Agent = (*Switchable)(nil)

// NewSwitchable returns a Switchable that starts with a.
func NewSwitchable(a chat.Agent) *Switchable { return &Switchable{a: a} }

// Set makes a answer the next turns.
func (s *Switchable) Set(a chat.Agent) {
	s.mu.Lock()
	s.a = a
	s.mu.Unlock()
}

// Respond passes the turn to the current agent.
func (s *Switchable) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	s.mu.Lock()
	a := s.a
	s.mu.Unlock()
	return a.Respond(ctx, t, r)
}
