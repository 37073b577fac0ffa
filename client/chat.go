package client

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"opsassist/nplt"
)

// Chat sends text as one user message and passes the events of the reply
// to h (which may be nil) until the reply ends with an EventEnd. An
// EventPermission waits for AnswerPermission, which h may call (or a
// handler without an answer lets it expire: a deny); an EventQuestion
// likewise waits for AnswerQuestion (or its default, at its deadline). It returns
// a *ServerError if the reply carried an ERROR frame, ctx's error if ctx
// ends first (the rest of the reply is then dropped), and an error
// matching ErrConnectionLost if the connection fails before the end.
func (c *Conn) Chat(ctx context.Context, text string, h EventHandler) error {
	if text == "" {
		return ErrEmptyMessage
	}
	if len(text) > nplt.MaxPayload {
		return fmt.Errorf("client: message of %d bytes: %w", len(text), nplt.ErrFrameTooLarge)
	}
	r, end, err := c.begin(ctx, false)
	if err != nil {
		return err
	}
	defer end()
	if err := c.write(nplt.ChatText, []byte(text)); err != nil {
		return err
	}
	var serr error
	for {
		f, err := r.next(ctx)
		if err != nil {
			return joinServerError(serr, err)
		}
		ev, err := decodeEvent(f)
		if errors.Is(err, errNotEvent) {
			c.log.Debug("ignoring frame in chat reply", zap.Stringer("type", f.Type))
			continue
		}
		if err != nil {
			c.log.Warn("undecodable frame in chat reply", zap.Error(err))
			continue
		}
		switch ev.Type {
		case EventStreamStart:
			c.setSessionID(ev.Status.SessionID)
		case EventError:
			if !IsAnswerError(ev.Error.Code) { // a refused answer, not the turn's error
				serr = ev.Error
			}
		}
		if h != nil {
			h(ev)
		}
		if ev.Type == EventEnd {
			return serr
		}
	}
}
