package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"opsassist/api"
)

// Question is what the ask_user tool asks the user (Responder.AskUser):
// api.UserQuestion, shared with the tool layer.
type Question = api.UserQuestion

// Answered is the answer to a Question: AnsweredByUser,
// AnsweredByDefault, AnsweredByTimeout, AnsweredByCancel or
// AnsweredByDisconnect answered it.
type Answered = api.UserAnswer

// AnsweredByDefault: the question timed out and its default answered.
const AnsweredByDefault = "default"

// Errors answering a question. Each is a *Error whose Code a transport
// sends; match them with errors.Is.
var (
	// ErrQuestionUnknown: no such question for this conversation and
	// principal.
	ErrQuestionUnknown = errors.New("chat: unknown question")
	// ErrQuestionAnswered: the question was answered already.
	ErrQuestionAnswered = errors.New("chat: question already answered")
	// ErrQuestionExpired: the question timed out, was cancelled or its
	// client left before the answer came.
	ErrQuestionExpired = errors.New("chat: question expired")
	// ErrBadAnswer: the answer is not one the question takes; the
	// question stays open.
	ErrBadAnswer = errors.New("chat: bad answer")
	// ErrCannotAskQuestion is what AskUser returns when the transport
	// cannot carry the question (its Emit returned ErrCannotAsk, which
	// it matches).
	ErrCannotAskQuestion error = cannotAskQuestion{}
	// ErrBadQuestion: the question itself is malformed (a choice without
	// options, an unknown kind, a default it would refuse).
	ErrBadQuestion = errors.New("chat: bad question")
)

// checkAnswer validates answer a against q and returns it normalised: a
// confirm's yes/no (also y/n, 是/否) as "yes" or "no", a choice named by
// its label as its option id, other answers trimmed.
func checkAnswer(q Question, a string) (string, error) {
	a = strings.TrimSpace(a)
	if a == "" {
		return "", &Error{Code: api.CodeBadAnswer, Err: fmt.Errorf("%w: empty answer", ErrBadAnswer)}
	}
	switch q.Kind {
	case api.QuestionConfirm:
		switch strings.ToLower(a) {
		case "yes", "y", "是":
			return "yes", nil
		case "no", "n", "否":
			return "no", nil
		}
		return "", &Error{Code: api.CodeBadAnswer, Err: fmt.Errorf("%w %q: want yes or no", ErrBadAnswer, a)}
	case api.QuestionChoice:
		if id := answerOption(q, a); id != "" {
			return id, nil
		}
		if q.AllowCustom {
			return a, nil
		}
		ids := make([]string, len(q.Options))
		for i, o := range q.Options {
			ids[i] = o.ID
		}
		return "", &Error{Code: api.CodeBadAnswer, Err: fmt.Errorf("%w %q: want one of %s", ErrBadAnswer, a, strings.Join(ids, ", "))}
	}
	return a, nil
}

// answerOption returns the id of q's option a names, by its id or, failing
// that, by a label no other option has (case folded), or "".
func answerOption(q Question, a string) string {
	if q.Kind != api.QuestionChoice {
		return ""
	}
	if slices.ContainsFunc(q.Options, func(o api.QuestionOption) bool { return o.ID == a }) {
		return a
	}
	id := ""
	for _, o := range q.Options {
		if strings.EqualFold(o.Label, a) {
			if id != "" {
				return "" // two options share the label: say which by id
			}
			id = o.ID
		}
	}
	return id
}

// validateQuestion reports a malformed question.
func validateQuestion(q Question) error {
	switch q.Kind {
	case api.QuestionText, api.QuestionConfirm:
	case api.QuestionChoice:
		if len(q.Options) == 0 {
			return fmt.Errorf("%w: a choice needs options", ErrBadQuestion)
		}
	default:
		return fmt.Errorf("%w: kind %q, want text, choice or confirm", ErrBadQuestion, q.Kind)
	}
	if strings.TrimSpace(q.Question) == "" {
		return fmt.Errorf("%w: empty question", ErrBadQuestion)
	}
	if q.Default != "" {
		if _, err := checkAnswer(q, q.Default); err != nil {
			return fmt.Errorf("%w: default %q is not an answer it takes", ErrBadQuestion, q.Default)
		}
	}
	return nil
}

// ask puts q to the user of the turn: a question is registered in the
// service's pending-request registry (the one permission requests use),
// then emitted, and its answer, its deadline or ctx ends the wait. A
// timeout answers with the default, if any; a cancel or disconnect is no
// answer.
func (a *asker) ask(ctx context.Context, q Question) (Answered, error) {
	if err := validateQuestion(q); err != nil {
		return Answered{}, err
	}
	timeout := q.Timeout
	if timeout <= 0 {
		timeout = a.svc.cfg.PermissionTimeout
	}
	p := a.svc.perms
	id, r, err := p.open(&pendingRequest{conv: a.conv, owner: a.owner, answer: make(chan string, 1), question: true, check: func(ans string) (string, error) { return checkAnswer(q, ans) }})
	if err != nil {
		return Answered{}, err
	}
	expires := a.svc.cfg.Now().Add(timeout)
	ev := &api.Question{
		RequestID: id, Question: q.Question, Kind: q.Kind, Options: q.Options, AllowCustom: q.AllowCustom,
		Default: q.Default, ExpiresAt: expires.UTC().Format(time.RFC3339),
	}
	p.shown(id, nil, ev, expires)
	if err := a.emit(Event{Kind: KindQuestion, Question: ev}); err != nil {
		p.expire(id, r)
		if errors.Is(err, ErrCannotAsk) {
			return Answered{}, ErrCannotAskQuestion
		}
		return Answered{By: AnsweredByDisconnect}, nil
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var ans string
	select {
	case ans = <-r.answer:
	case <-timer.C:
		if v, expired := p.expire(id, r); !expired {
			ans = v
			break
		}
		if q.Default != "" {
			d, _ := checkAnswer(q, q.Default) // validated
			return Answered{Answer: d, Option: answerOption(q, d), By: AnsweredByDefault}, nil
		}
		return Answered{By: AnsweredByTimeout}, nil
	case <-ctx.Done():
		if v, expired := p.expire(id, r); !expired {
			ans = v
			break
		}
		if userCancelled(ctx) {
			return Answered{By: AnsweredByCancel}, nil
		}
		return Answered{By: AnsweredByDisconnect}, nil
	}
	if ans == withdrawnAnswer { // the server is stopping
		return Answered{By: AnsweredByDisconnect}, nil
	}
	return Answered{Answer: ans, Option: answerOption(q, ans), By: AnsweredByUser}, nil
}

// answerQuestion delivers answer to question id of conv, if owner owns
// it and the question takes it; a refused answer leaves it open.
func (p *permissions) answerQuestion(owner, conv, id, answer string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.pending[id]
	if !ok || r.owner != owner || r.conv != conv || !r.question {
		return p.refuse(owner, conv, id, true)
	}
	v, err := r.check(answer)
	if err != nil {
		return err
	}
	p.deliver(id, r, v)
	return nil
}

// AnswerQuestion answers question id of the session's conversation
// with answer (an option id or free text). A question of another
// conversation or principal is unknown; a late answer is answered or
// expired; an answer the question does not take is refused and the
// question stays open. Each error is a *Error with its code.
func (se *Session) AnswerQuestion(id, answer string) error {
	return se.svc.perms.answerQuestion(se.who.ID, se.ID(), id, answer)
}

// cannotAskQuestion is ErrCannotAskQuestion: ErrCannotAsk, said of a
// question.
type cannotAskQuestion struct{}

func (cannotAskQuestion) Error() string { return "chat: this client cannot answer questions" }
func (cannotAskQuestion) Unwrap() error { return ErrCannotAsk }
