package chat

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/storage/history"
)

// errInternal is what a client is told of a background job that
// panicked.
var errInternal = errors.New("internal error")

// guard runs a background job (indexing), turning a panic into an error
// logged with its stack, so one bad upload cannot take down the daemon.
func (s *Service) guard(what string, job func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("background job panicked", zap.String("job", what), zap.Any("panic", p), zap.Stack("stack"))
			err = errInternal
		}
	}()
	return job()
}

// ErrPanicked is what a turn whose agent panicked returns (match it with
// errors.Is); the client got an Error event with api.CodeInternal.
var ErrPanicked = errors.New("chat: agent panicked")

// panicError is the user's view of a panic in the agent, in the user's
// language; it matches ErrPanicked.
type panicError struct{ zh bool }

func (e panicError) Error() string {
	if e.zh {
		return "内部错误：这条消息没能处理完，问题已记录在服务器日志中。请换个说法再试。"
	}
	return "internal error: this message could not be handled; the problem has been logged on the server. Please try again or rephrase it."
}

func (e panicError) Is(target error) bool { return target == ErrPanicked }

// respond runs the agent. A panic in it (planner, tool, responder) is
// logged with its stack and becomes an internal error in the user's
// language, with that text as the assistant message to record, so one
// bad message cannot take down the connection or the daemon.
func (se *Session) respond(ctx context.Context, t *Turn, r Responder) (msgs []history.Message, err error) {
	defer func() {
		if p := recover(); p != nil {
			se.svc.log.Error("agent panicked", zap.String("session", t.SessionID), zap.Int("input_bytes", len(t.Input)),
				zap.Any("panic", p), zap.Stack("stack"))
			pe := panicError{zh: IsChinese(t.Input)}
			msgs = []history.Message{{Role: "assistant", Content: pe.Error(), Time: se.svc.cfg.Now()}}
			err = &Error{Code: api.CodeInternal, Err: pe}
		}
	}()
	return se.svc.cfg.Agent.Respond(ctx, t, r)
}

// turnState is how far a turn got, for endOnPanic: each flag is set
// just before the step is tried.
type turnState struct {
	recorded  bool // the turn's messages were appended (or are not to be)
	errorSent bool // an Error event was emitted
	endSent   bool // End was emitted
}

// endOnPanic, deferred by Chat, recovers a panic outside the agent (the
// agent's own is respond's): it logs it with its stack, records the user
// message with an assistant note unless the turn was recorded, emits the
// Error (code internal, in the user's language) and End events not yet
// tried, and makes Chat return an internal error matching ErrPanicked.
// A second panic while doing so is logged and swallowed.
func (se *Session) endOnPanic(conv *history.Conversation, input string, now time.Time, emit Emit, st *turnState, err *error) {
	p := recover()
	if p == nil {
		return
	}
	se.svc.log.Error("chat turn panicked", zap.String("session", conv.ID()), zap.Int("input_bytes", len(input)),
		zap.Any("panic", p), zap.Stack("stack"))
	pe := panicError{zh: IsChinese(input[:min(len(input), MaxMessage)])}
	*err = &Error{Code: api.CodeInternal, Err: pe}
	safely := func(what string, f func() error) {
		defer func() {
			if p := recover(); p != nil {
				se.svc.log.Error("ending a panicked turn panicked", zap.String("step", what), zap.Any("panic", p), zap.Stack("stack"))
			}
		}()
		if e := f(); e != nil {
			se.svc.log.Warn("ending a panicked turn failed", zap.String("step", what), zap.Error(e))
		}
	}
	if !st.recorded {
		st.recorded = true
		safely("record", func() error {
			return conv.Append(history.Message{Role: "user", Content: input, Time: now},
				history.Message{Role: "assistant", Content: pe.Error(), Time: se.svc.cfg.Now()})
		})
	}
	if st.endSent {
		return // End was tried: the stream is over, one way or another
	}
	if !st.errorSent {
		st.errorSent = true
		safely("error event", func() error {
			return emit(Event{Kind: KindError, Error: &ErrorInfo{Code: api.CodeInternal, Message: pe.Error()}})
		})
	}
	st.endSent = true
	safely("end event", func() error { return emit(Event{Kind: KindEnd}) })
}
