package npltserver

import (
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
)

// handleCancel stops the turn running in the connection's conversation
// (CANCEL, empty payload). It runs on the reader, since the worker is
// busy with the very turn to stop: the turn's context is cancelled, the
// turn records its partial answer and ends its reply normally (the
// empty CHAT_TEXT), and the worker goes on with the requests queued
// behind it — a question typed while the answer streamed is answered
// next. A direct call (TOOL_CALL) in progress is cancelled the same
// way: its result (unsuccessful) ends its reply. CANCEL has no reply of
// its own; with neither a running turn nor a call it does nothing. A CANCEL with a payload is refused with bad_request (a reply
// queued after the current one) and cancels nothing.
func (c *conn) handleCancel(f nplt.Frame) bool {
	if len(f.Payload) != 0 {
		return c.enqueueError(api.CodeBadRequest, "CANCEL takes no payload")
	}
	if c.sess.Cancel() {
		c.log.Debug("turn cancelled by the client", zap.String("session", c.sess.ID()))
	}
	if c.stopToolCall() {
		c.log.Debug("direct tool call cancelled by the client")
	}
	return true
}
