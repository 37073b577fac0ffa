package npltserver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
	"opsassist/tools/toolcall"
)

// The tool catalog and direct tool calls over NPLT: TOOL_LIST and
// TOOL_CALL, the twins of HTTP's GET /api/tools and POST
// /api/tools/{name} (package toolcall owns the rules both apply). Both
// are extension frames: only a client that sent HELLO may send them,
// since the reply is made of them. Each is a request like any other: it
// is queued and run by the worker, in order, so a direct call that takes
// its call_timeout never holds up the reader (PING, CANCEL and the
// heartbeat are answered meanwhile), and a second TOOL_CALL, like a chat
// message, waits its turn behind the first.

// maxToolCall bounds a TOOL_CALL payload: a tool name and its
// arguments.
const maxToolCall = 32 << 10

// toolListHint is how an NPLT client lists the tools, named when a
// TOOL_CALL names none of them.
const toolListHint = "TOOL_LIST (/tools)"

// handleToolList answers TOOL_LIST (empty payload) with the catalog:
// TOOL_LIST frames carrying the api.Catalog JSON, then the end.
func (c *conn) handleToolList(f nplt.Frame) bool {
	switch {
	case !c.ext.Load():
		return c.enqueueError(api.CodeBadRequest, "TOOL_LIST is an extension frame: send HELLO first")
	case len(f.Payload) != 0:
		return c.enqueueError(api.CodeBadRequest, "TOOL_LIST takes no payload")
	case c.srv.cfg.Catalog == nil:
		return c.enqueueError(api.CodeNotFound, "tool catalog not configured")
	}
	return c.enqueue(func(context.Context) {
		c.sendDocument(nplt.ToolList, toolcall.List(c.srv.cfg.Catalog))
	})
}

// handleToolCall runs TOOL_CALL's tool once, in the connection's
// current conversation, for the connection's principal, as a direct
// call (toolcall.Direct: the policy decides, a deny still denies, a call
// it would ask about counts as approved by this request; audited as
// direct). The reply is TOOL_CALL frames carrying the api.ToolResult
// JSON — a failed or refused call too — then the end; a payload that is
// not JSON {"name","arguments"} is bad_json, one with another field or
// arguments that are not an object bad_request, an unknown tool not_found, a payload over
// maxToolCall too_large: ERROR, end, and nothing runs. The call is
// cancelled by CANCEL — while it runs, or while it waits in the queue
// (handleCancel says which request a CANCEL reaches) — and when the
// connection closes.
func (c *conn) handleToolCall(f nplt.Frame) bool {
	switch {
	case !c.ext.Load():
		return c.enqueueError(api.CodeBadRequest, "TOOL_CALL is an extension frame: send HELLO first")
	case c.srv.cfg.Runner == nil:
		return c.enqueueError(api.CodeNotFound, "direct tool calls not enabled")
	}
	req, code, msg := parseToolCall(f.Payload)
	if code != "" {
		return c.enqueueError(code, msg)
	}
	q := &queuedCall{}
	c.toolMu.Lock()
	c.toolQueued = append(c.toolQueued, q)
	c.toolMu.Unlock()
	return c.enqueueJob(job{
		run:  func(ctx context.Context) { c.runToolCall(ctx, req, q) },
		drop: func() { c.dequeueToolCall(q) },
	})
}

// queuedCall is a direct call waiting in the connection's queue.
// cancelled is set (under conn.toolMu) by a CANCEL that reached it
// there: it then answers its cancelled result without running.
type queuedCall struct {
	cancelled bool
}

// dequeueToolCall removes q from the queued calls (a job dropped
// unrun).
func (c *conn) dequeueToolCall(q *queuedCall) {
	c.toolMu.Lock()
	defer c.toolMu.Unlock()
	c.dequeueLocked(q)
}

// dequeueLocked removes q from the queued calls and reports whether a
// CANCEL cancelled it while it waited. The caller holds toolMu.
func (c *conn) dequeueLocked(q *queuedCall) bool {
	if i := slices.Index(c.toolQueued, q); i >= 0 {
		c.toolQueued = slices.Delete(c.toolQueued, i, i+1)
	}
	return q.cancelled
}

// parseToolCall decodes a TOOL_CALL payload, or says why not (an api
// code and a message). The arguments are checked by toolcall.Check.
func parseToolCall(p []byte) (req nplt.ToolCallPayload, code, msg string) {
	if len(p) > maxToolCall {
		return req, api.CodeTooLarge, fmt.Sprintf("TOOL_CALL of %d bytes; at most %d", len(p), maxToolCall)
	}
	if err := unmarshalStrict(p, &req); err != nil || req.Name == "" {
		return req, api.CodeBadJSON, `TOOL_CALL wants JSON {"name","arguments"}`
	}
	var te *toolcall.Error
	if errors.As(toolcall.CheckFields(p, req), &te) { // strict: "argumentz" must not run the tool with {}
		return req, te.Code, te.Message
	}
	return req, "", ""
}

// runToolCall runs one direct call on the worker and sends its reply. A
// call cancelled while it was queued runs with its context already done:
// toolcall.Direct records it as refused by the cancel and answers its
// cancelled result without running the tool.
func (c *conn) runToolCall(ctx context.Context, req nplt.ToolCallPayload, q *queuedCall) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	// Leaving the queue and becoming the running call is one step, so a
	// CANCEL finds the call in one place or the other.
	c.toolMu.Lock()
	if c.dequeueLocked(q) {
		stop()
	}
	c.toolStop = stop
	c.toolMu.Unlock()
	defer func() {
		c.toolMu.Lock()
		c.toolStop = nil
		c.toolMu.Unlock()
	}()
	who := c.sess.Principal()
	_, ups := c.sess.History()
	caller := toolcall.Caller{ClientType: c.sess.ClientType(), User: who.Name, Role: who.Role, Owner: who.ID, SessionID: c.sess.ID(), Uploads: ups}
	res, err := toolcall.Direct(ctx, c.srv.cfg.Runner, caller, req.Name, req.Arguments, toolListHint)
	var te *toolcall.Error
	switch {
	case errors.As(err, &te):
		c.replyError(te.Code, te.Message)
		return
	case err != nil:
		c.log.Error("direct tool call failed", zap.String("tool", req.Name), zap.Error(err))
		c.replyError(api.CodeInternal, internalMessage)
		return
	}
	c.sendDocument(nplt.ToolCall, res)
}

// cancelQueuedToolCall marks the newest direct call still waiting in the
// queue cancelled, and reports whether there was one.
func (c *conn) cancelQueuedToolCall() bool {
	c.toolMu.Lock()
	defer c.toolMu.Unlock()
	for i := len(c.toolQueued) - 1; i >= 0; i-- {
		if q := c.toolQueued[i]; !q.cancelled {
			q.cancelled = true
			return true
		}
	}
	return false
}

// stopToolCall cancels the direct call in progress, if any, and reports
// whether there was one.
func (c *conn) stopToolCall() bool {
	c.toolMu.Lock()
	defer c.toolMu.Unlock()
	if c.toolStop == nil {
		return false
	}
	c.toolStop()
	return true
}

// sendDocument sends v's JSON as a complete reply of frames of type t,
// each carrying at most MaxPayload bytes of it, then the end: a catalog
// or a tool's output may not fit one frame.
func (c *conn) sendDocument(t nplt.Type, v any) {
	b, err := marshal(v)
	if err != nil {
		c.log.Error("cannot encode reply", zap.Stringer("type", t), zap.Error(err))
		c.replyError(api.CodeInternal, internalMessage)
		return
	}
	c.sendChunks(t, b)
}

// sendChunks sends b as a complete reply of frames of type t, each
// carrying at most MaxPayload bytes of it, then the end. It stops when
// the connection closes.
func (c *conn) sendChunks(t nplt.Type, b []byte) {
	for len(b) > 0 {
		n := min(len(b), nplt.MaxPayload)
		if c.send(t, b[:n]) != nil {
			return
		}
		b = b[n:]
	}
	c.end()
}
