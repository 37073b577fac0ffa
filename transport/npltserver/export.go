package npltserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"go.uber.org/zap"

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
// connection, whose writes time out, and one that reads too slowly to
// take the export within chat.ExportSendTime is closed (sendCopies).
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
			return c.sendCopies(nplt.SessionExport, e.Data)
		})
		if err != nil && !errors.Is(err, errExportSlow) && !errors.Is(err, net.ErrClosed) {
			c.replyError(chatCode(err), chat.Message(err))
		}
	})
}

// errExportSlow is sendCopies' error when the client did not take an
// export within chat.ExportSendTime.
var errExportSlow = errors.New("npltserver: export not received in time")

// sendCopies sends b as frames of type t, then the end, each frame a
// copy: the export's buffer is not kept alive by the frames still queued
// for a slow reader once its budget is given back (chat.Session.ExportTo).
// The frames must be queued within chat.ExportSendTime(len(b)) — the
// writer takes them from the queue only as fast as the client reads —
// or the connection is closed and errExportSlow returned: the budget the
// export holds is then given back however slowly the client reads (the
// per-write deadline alone lets a reader that takes a frame now and then
// hold it for hours). An ERROR frame cannot be sent then, as the queue
// is full; the client sees the connection close mid-export.
func (c *conn) sendCopies(t nplt.Type, b []byte) error {
	limit := chat.ExportSendTime(len(b))
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	size := len(b)
	queue := func(f outFrame) error {
		select {
		case c.out <- f:
			return nil
		case <-c.wroteDone:
			return net.ErrClosed
		case <-deadline.C:
			c.log.Info("export not received in time; closing", zap.Int("bytes", size), zap.Duration("limit", limit))
			c.abort()
			return errExportSlow
		}
	}
	for len(b) > 0 {
		n := min(len(b), nplt.MaxPayload)
		if err := queue(outFrame{t, append([]byte(nil), b[:n]...)}); err != nil {
			return err
		}
		b = b[n:]
	}
	return queue(outFrame{nplt.ChatText, nil})
}
