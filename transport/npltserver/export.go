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
// extension frame without HELLO or a format other than md and json
// (bad_request), not JSON or no session_id (bad_json), a payload over
// maxExportPayload (too_large), an export over chat.MaxExport
// (too_large). Like every request it is queued and run by the worker;
// a client that stops reading holds up only its own connection, whose
// writes time out.
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
	if p.Format == "" {
		p.Format = chat.ExportMarkdown
	}
	if p.Format != chat.ExportMarkdown && p.Format != chat.ExportJSON {
		return c.enqueueError(api.CodeBadRequest, `format must be "md" or "json"`)
	}
	return c.enqueue(func(context.Context) {
		b, err := c.sess.Export(p.SessionID, p.Format)
		if err != nil {
			c.replyError(chatCode(err), chat.Message(err))
			return
		}
		c.sendChunks(nplt.SessionExport, b)
	})
}
