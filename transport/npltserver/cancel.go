package npltserver

import (
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
)

// handleCancel stops the request CANCEL (empty payload) applies to: the
// newest direct call (TOOL_CALL) still waiting in the connection's
// queue, if any — the client's latest request it can stop; it is then
// answered, in its place, with its cancelled result without running —,
// otherwise the turn running in the connection's conversation or the
// direct call in progress. It runs on the reader, since the worker is
// busy with the very request to stop: the turn's context is cancelled,
// the turn records its partial answer and ends its reply normally (the
// empty CHAT_TEXT), and the worker goes on with the requests queued
// behind it — a question typed while the answer streamed is answered
// next; a direct call's result (unsuccessful) ends its reply. CANCEL
// has no reply of its own; with nothing to stop it does nothing. A
// CANCEL with a payload is refused with bad_request (a reply queued
// after the current one) and cancels nothing.
func (c *conn) handleCancel(f nplt.Frame) bool {
	if len(f.Payload) != 0 {
		return c.enqueueError(api.CodeBadRequest, "CANCEL takes no payload")
	}
	if c.cancelQueuedToolCall() {
		c.log.Debug("queued direct tool call cancelled by the client")
		return true
	}
	if c.sess.Cancel() {
		c.log.Debug("turn cancelled by the client", zap.String("session", c.sess.ID()))
	}
	if c.stopToolCall() {
		c.log.Debug("direct tool call cancelled by the client")
	}
	return true
}
