package npltserver

import (
	"context"
	"fmt"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
)

// maxExportPayload bounds a SESSION_EXPORT payload: an id and a format.
const maxExportPayload = 1 << 10

// handleSessionExport answers SESSION_EXPORT (JSON {"session_id",
// "format"}) with the conversation's export, the bytes chat.Export makes
// (GET /api/sessions/{id}/export sends the same): SESSION_EXPORT frames
// whose payloads, concatenated, are the export, then the end. Only the
// principal's own conversations (or the connection's current one) are
// exported; another user's is not_found. Refused with ERROR, end: an
// extension frame without HELLO (bad_request), not JSON or no session_id
// (bad_json), a payload over maxExportPayload (too_large); and, as
// chat.Session.ExportTo decides, in the conversation's language: a
// format other than md and json (bad_request), an export over
// chat.MaxExport (too_large), the server's export budget in use
// (server_busy, retryable). Like every request it is queued and run by
// the worker; a client that stops reading holds up only its own
// connection, whose writes time out.
func (c *conn) handleSessionExport(f nplt.Frame) bool {
	if !c.ext.Load() {
		return c.enqueueError(api.CodeBadRequest, "SESSION_EXPORT is an extension frame: send HELLO first")
	}
	if len(f.Payload) > maxExportPayload {
		return c.enqueueError(api.CodeTooLarge, fmt.Sprintf("SESSION_EXPORT payload over %d bytes", maxExportPayload))
	}
	var p nplt.SessionExportPayload
	if err := unmarshalStrict(f.Payload, &p); err != nil || p.SessionID == "" {
		return c.enqueueError(api.CodeBadJSON, `SESSION_EXPORT wants JSON {"session_id","format"}`)
	}
	return c.enqueue(func(context.Context) {
		err := c.sess.ExportTo(p.SessionID, p.Format, func(e chat.Exported) error {
			c.sendCopies(nplt.SessionExport, e.Data)
			return nil
		})
		if err != nil {
			c.replyError(chatCode(err), chat.Message(err))
		}
	})
}

// sendCopies sends b as frames of type t, then the end, each frame a
// copy: the export's buffer is not kept alive by the frames still queued
// for a slow reader once its budget is given back (chat.Session.ExportTo).
func (c *conn) sendCopies(t nplt.Type, b []byte) {
	for len(b) > 0 {
		n := min(len(b), nplt.MaxPayload)
		if c.send(t, append([]byte(nil), b[:n]...)) != nil {
			return
		}
		b = b[n:]
	}
	c.end()
}
