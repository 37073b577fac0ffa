package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
)

// ErrToolsUnsupported is returned by Tools and CallTool when the server
// did not announce nplt.FeatureTools in its HELLO reply (an older
// server: its HTTP API, ToolsAPI, may still answer).
var ErrToolsUnsupported = errors.New("client: server has no TOOL_LIST or TOOL_CALL")

// Tools returns the server's tool catalog (TOOL_LIST), decoded and as
// sent: every registered tool and every configured MCP server's state,
// the same list GET /api/tools answers.
func (c *Conn) Tools(ctx context.Context) (api.Catalog, json.RawMessage, error) {
	var cat api.Catalog
	raw, err := c.document(ctx, nplt.ToolList, nil)
	if err != nil {
		return cat, nil, err
	}
	if err := json.Unmarshal(raw, &cat); err != nil {
		return cat, nil, fmt.Errorf("%w: decoding TOOL_LIST: %w", ErrProtocol, err)
	}
	return cat, raw, nil
}

// CallTool runs the tool name once, directly, with args (a JSON object;
// nil: {}) in the connection's current conversation (TOOL_CALL): the
// server's policy decides (a deny still denies; a call it would ask
// about counts as approved by this request) and audits it as a direct
// call. A call that ran and failed, or that the policy refused, is a
// ToolResult with Success false, not an error; an unknown tool or
// arguments that are not an object is a *ServerError (not_found,
// bad_request). When ctx ends first ctx's error is returned; if the
// TOOL_CALL was sent by then, the call is cancelled on the server
// (CANCEL, if it supports it), before the connection takes the next
// request — a call never sent is not, so the CANCEL cannot reach another
// request.
func (c *Conn) CallTool(ctx context.Context, name string, args json.RawMessage) (ToolResult, error) {
	var r ToolResult
	p, err := json.Marshal(nplt.ToolCallPayload{Name: name, Arguments: args})
	if err != nil {
		return r, fmt.Errorf("client: arguments: %w", err)
	}
	raw, err := c.document(ctx, nplt.ToolCall, p)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("%w: decoding TOOL_CALL: %w", ErrProtocol, err)
	}
	return r, nil
}

// cancelSent cancels the request this connection sent and is waiting
// for (CANCEL, if the server supports it). The caller still holds the
// request (begin's end not yet called), so the CANCEL goes out before
// any later request and reaches this one.
func (c *Conn) cancelSent() {
	if !slices.Contains(c.hello.Features, nplt.FeatureCancel) {
		return
	}
	if err := c.write(nplt.Cancel, nil); err != nil {
		c.log.Debug("cancelling the request", zap.Error(err))
	}
}

// document sends a frame of type t and collects its reply: frames of the
// same type whose payloads, concatenated, are one JSON document (at most
// maxToolsReply bytes), then the end; or ERROR, then the end (a
// *ServerError).
func (c *Conn) document(ctx context.Context, t nplt.Type, payload []byte) ([]byte, error) {
	if !slices.Contains(c.hello.Features, nplt.FeatureTools) {
		return nil, ErrToolsUnsupported
	}
	return c.collect(ctx, t, payload, maxToolsReply)
}

// collect sends a frame of type t and collects its reply: frames of the
// same type whose payloads, concatenated, are at most limit bytes, then
// the end; or ERROR, then the end (a *ServerError).
func (c *Conn) collect(ctx context.Context, t nplt.Type, payload []byte, limit int) ([]byte, error) {
	r, end, err := c.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer end()
	if err := ctx.Err(); err != nil {
		return nil, err // not sent: nothing to cancel
	}
	if err := c.write(t, payload); err != nil {
		return nil, err
	}
	var (
		doc        []byte
		serr, perr error
	)
	for {
		f, err := r.next(ctx)
		if err != nil {
			if t == nplt.ToolCall && ctx.Err() != nil {
				c.cancelSent()
			}
			return nil, joinServerError(serr, err)
		}
		switch {
		case f.Type == t:
			if len(doc)+len(f.Payload) > limit {
				perr = fmt.Errorf("%w: %v reply over %d bytes", ErrProtocol, t, limit)
				doc = nil
				continue
			}
			if perr == nil {
				doc = append(doc, f.Payload...)
			}
		case f.Type == nplt.Error:
			se, err := decodeServerError(f.Payload)
			if err != nil {
				perr = err
				continue
			}
			serr = se
		case isEnd(f):
			switch {
			case serr != nil:
				return nil, serr
			case perr != nil:
				return nil, perr
			case len(doc) == 0:
				return nil, fmt.Errorf("%w: empty %v reply", ErrProtocol, t)
			}
			return doc, nil
		}
	}
}
