package testkit

import (
	"context"
	"strings"
	"sync"

	"opsassist/api"
	"opsassist/chat"
)

// Recorder is a chat.Responder that keeps what a turn sends it: Events
// in order as "status:<type>", "delta:<text>" and "offer:<filename>";
// Statuses, each status's content; Text, the deltas joined;
// confirmations as "confirm:<tool>". It never fails and is safe for
// concurrent use (read its fields once the turn is over).
type Recorder struct {
	Events   []string
	Statuses []string
	Text     strings.Builder
	// Answer, if set, answers confirmations; nil denies them as a
	// disconnected user would.
	Answer func(chat.Confirmation) chat.Confirmed
	// Reply, if set, answers ask_user questions; nil leaves them
	// unanswered as a disconnected user would.
	Reply func(chat.Question) chat.Answered

	mu sync.Mutex
}

var _ chat.Responder = (*Recorder)(nil)

// Status records a status.
func (r *Recorder) Status(typ, content string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, "status:"+typ)
	r.Statuses = append(r.Statuses, content)
	return nil
}

// Delta records a chunk of the answer.
func (r *Recorder) Delta(text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, "delta:"+text)
	r.Text.WriteString(text)
	return nil
}

// Offer records a download offer.
func (r *Recorder) Offer(o api.Offer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, "offer:"+o.Filename)
	return nil
}

// Confirm records a confirmation and answers it with Answer.
func (r *Recorder) Confirm(_ context.Context, c chat.Confirmation) (chat.Confirmed, error) {
	r.mu.Lock()
	r.Events = append(r.Events, "confirm:"+c.Tool)
	answer := r.Answer
	r.mu.Unlock()
	if answer == nil {
		return chat.Confirmed{By: chat.AnsweredByDisconnect}, nil
	}
	return answer(c), nil
}

// AskUser records a question as "question:<text>" and answers it with
// Reply.
func (r *Recorder) AskUser(_ context.Context, q chat.Question) (chat.Answered, error) {
	r.mu.Lock()
	r.Events = append(r.Events, "question:"+q.Question)
	reply := r.Reply
	r.mu.Unlock()
	if reply == nil {
		return chat.Answered{By: chat.AnsweredByDisconnect}, nil
	}
	return reply(q), nil
}
