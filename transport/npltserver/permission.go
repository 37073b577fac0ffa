package npltserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// Permission requests over NPLT. A turn that asks the user sends
// PERMISSION_REQUEST inside its reply and waits; the worker running it is
// blocked, so everything the user may do meanwhile is handled by the
// reader: the PERMISSION_RESPONSE itself, and, once a request went out,
// HISTORY_REQUEST and a completed upload, answered inside the open reply
// (RESULT or UPLOAD_DONE alone: the reply's end is the turn's). PING and
// the published heartbeat are always answered by the reader.

// replyState tracks the chat reply in progress. Its lock orders frames
// the reader sends inside the reply before the reply's end.
type replyState struct {
	mu    sync.Mutex
	open  bool // a chat reply started and has not ended
	asked bool // the open reply sent a PERMISSION_REQUEST
}

// begin marks a chat reply as started.
func (r *replyState) begin() {
	r.mu.Lock()
	r.open, r.asked = true, false
	r.mu.Unlock()
}

// finish marks the reply as ended; send, if set, sends the end under
// the lock, so nothing the reader sends inside the reply comes after it.
func (r *replyState) finish(send func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.open, r.asked = false, false
	if send != nil {
		return send()
	}
	return nil
}

// waiting reports whether the open reply has asked the user: the turn
// may be waiting for an answer only the reader can deliver.
func (r *replyState) waiting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.open && r.asked
}

// markAsked records that the open reply asks the user, and wakes a
// reader waiting for room in the queue (enqueueJob): from now on it
// refuses instead of waiting.
func (c *conn) markAsked() {
	c.reply.mu.Lock()
	c.reply.asked = true
	c.reply.mu.Unlock()
	select {
	case c.askWake <- struct{}{}:
	default:
	}
}

// inside runs f under the lock if the reply is open and has asked the
// user, and reports whether it did.
func (r *replyState) inside(f func()) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open || !r.asked {
		return false
	}
	f()
	return true
}

// emitPermission sends a PERMISSION_REQUEST inside the reply. A client
// that sent no HELLO cannot receive it, and the call is refused.
func (c *conn) emitPermission(p *api.PermissionRequest) error {
	if !c.ext.Load() {
		return chat.ErrCannotAsk
	}
	c.markAsked()
	return c.sendJSON(nplt.PermissionRequest, p)
}

// maxPermissionResponse bounds a PERMISSION_RESPONSE payload: an id and
// a decision.
const maxPermissionResponse = 1024

// handlePermissionResponse delivers an answer to the waiting turn, on
// the reader: never queued behind the turn that waits for it. A refused
// answer gets an ERROR frame alone, at once: it ends no reply, so a
// client tells it from the turn's own errors by its code.
func (c *conn) handlePermissionResponse(f nplt.Frame) bool {
	resp, code, msg := parsePermissionResponse(f.Payload)
	if code != "" {
		return c.answerError(code, msg)
	}
	answer := c.sess.AnswerPermission
	if resp.Reason == api.ReasonNoTerminal && resp.Decision == api.DecisionDeny {
		answer = func(id, _ string) error { return c.sess.DenyPermissionUnasked(id) }
	}
	if err := answer(resp.RequestID, resp.Decision); err != nil {
		c.log.Debug("permission answer refused", zap.Error(err))
		return c.answerError(chatCode(err), permissionMessage(err))
	}
	return true
}

// parsePermissionResponse decodes a PERMISSION_RESPONSE payload, or
// says why not (an api code and a message).
func parsePermissionResponse(p []byte) (resp api.PermissionResponse, code, msg string) {
	if len(p) > maxPermissionResponse {
		return resp, api.CodeTooLarge, fmt.Sprintf("PERMISSION_RESPONSE of %d bytes; at most %d", len(p), maxPermissionResponse)
	}
	if err := unmarshalStrict(p, &resp); err != nil || resp.RequestID == "" {
		return resp, api.CodeBadJSON, `PERMISSION_RESPONSE wants JSON {"request_id","decision","reason"?}`
	}
	if resp.Reason != "" && (resp.Reason != api.ReasonNoTerminal || resp.Decision != api.DecisionDeny) {
		return resp, api.CodeBadRequest, `PERMISSION_RESPONSE "reason" is "no_terminal", with the decision "deny"`
	}
	return resp, "", ""
}

// answerError reports a refused answer: to a HELLO client an ERROR
// frame alone, at once; a published client (which is never asked) gets
// a reply in turn.
func (c *conn) answerError(code, msg string) bool {
	if !c.ext.Load() {
		return c.enqueueError(code, msg)
	}
	return c.send(nplt.Error, errorPayload(code, msg)) == nil
}

// permissionMessage is the user's view of a refused answer.
func permissionMessage(err error) string {
	switch {
	case errors.Is(err, chat.ErrPermissionUnknown):
		return "未知的权限请求 unknown permission request: " + strings.TrimPrefix(chat.Message(err), chat.Message(chat.ErrPermissionUnknown)+" ")
	case errors.Is(err, chat.ErrPermissionAnswered):
		return "该权限请求已回答 permission request already answered"
	case errors.Is(err, chat.ErrPermissionExpired):
		return "权限请求已过期，操作已拒绝 permission request expired; the call was denied"
	case errors.Is(err, chat.ErrBadDecision):
		return "无效的决定 bad decision: want allow_once, allow_session or deny"
	}
	return chat.Message(err)
}

// handleHistoryRequest answers HISTORY_REQUEST: inside a reply that
// asked the user, at once with the RESULT alone; otherwise in turn.
func (c *conn) handleHistoryRequest() bool {
	if c.ext.Load() && c.reply.inside(func() {
		data, _ := c.history()
		c.sendJSON(nplt.Result, nplt.ResultPayload{Kind: "history", Data: data})
	}) {
		return true
	}
	return c.enqueue(c.replyHistory)
}

// commitInline stores a completed upload at once, inside a reply that
// asked the user, confirming it with UPLOAD_DONE alone. It reports
// whether it did; otherwise the worker commits it in turn.
func (c *conn) commitInline(p *uploads.Pending) bool {
	return c.ext.Load() && c.reply.inside(func() {
		_, err := c.sess.CommitUpload(p, func(u history.Upload) {
			c.srv.cfg.Metrics.UploadReceived(transportName, u.Size)
			c.sendJSON(nplt.UploadDone, nplt.UploadDonePayload{FileID: u.FileID, Filename: u.Filename, Size: u.Size, SHA256: u.SHA256, SessionID: c.sess.ID()})
		})
		if err != nil {
			c.log.Warn("upload refused", zap.String("file", p.Name()), zap.Error(err))
			code, msg := uploadRefusal(err)
			c.sendError(code, msg)
		}
	})
}

// grantsCommand is PERMISSION_GRANTS' payload: empty lists the grants,
// {"revoke":"<grant id>"} revokes one.
type grantsCommand struct {
	Revoke string `json:"revoke"`
}

// handlePermissionGrants lists or revokes the conversation's
// allow_session grants; the reply is a RESULT (kind "permissions") and
// text, like the SESSION_* commands.
func (c *conn) handlePermissionGrants(f nplt.Frame) bool {
	var cmd grantsCommand
	if len(f.Payload) > maxPermissionResponse {
		return c.enqueueError(api.CodeTooLarge, fmt.Sprintf("PERMISSION_GRANTS of %d bytes; at most %d", len(f.Payload), maxPermissionResponse))
	}
	if len(strings.TrimSpace(string(f.Payload))) > 0 {
		if err := unmarshalStrict(f.Payload, &cmd); err != nil || cmd.Revoke == "" {
			return c.enqueueError(api.CodeBadJSON, `PERMISSION_GRANTS wants an empty payload or JSON {"revoke":"<grant id>"}`)
		}
	}
	return c.enqueue(func(context.Context) {
		var b strings.Builder
		if cmd.Revoke != "" {
			g, err := c.sess.RevokeGrant(cmd.Revoke)
			if err != nil {
				c.replyError(chatCode(err), "未知的授权 unknown grant: "+cmd.Revoke)
				return
			}
			fmt.Fprintf(&b, "已撤销授权 Revoked: %s %s\n", g.ID, g.Scope)
		}
		grants := c.sess.Grants()
		b.WriteString(grantsText(grants))
		c.result("permissions", map[string]any{"session_id": c.sess.ID(), "grants": nonNil(grants), "revoked": cmd.Revoke}, b.String())
	})
}

// grantsText lists grants for people.
func grantsText(gs []chat.Grant) string {
	var b strings.Builder
	b.WriteString("=== 本对话的授权 Conversation permissions ===\n")
	if len(gs) == 0 {
		b.WriteString("(无 none)\n")
	}
	for _, g := range gs {
		fmt.Fprintf(&b, "%s  %s  (%s)\n", g.ID, g.Scope, g.GrantedAt.Local().Format(time.DateTime))
	}
	return b.String()
}
