package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// upstream returns the daemon session, connecting (and offering the
// daemon's tools) if there is none: at initialize, and after a session
// broke. Connections are made one at a time.
func (b *Bridge) upstream(ctx context.Context) (*mcp.ClientSession, error) {
	b.connMu.Lock()
	defer b.connMu.Unlock()
	b.mu.Lock()
	up, caps := b.up, b.caps
	b.mu.Unlock()
	if up != nil {
		return up, nil
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.ConnectTimeout)
	defer cancel()
	opts := &mcp.ClientOptions{
		Capabilities:                caps,
		ToolListChangedHandler:      b.onToolsChanged,
		ProgressNotificationHandler: b.onProgress,
	}
	if caps != nil && caps.Elicitation != nil {
		opts.ElicitationHandler = b.elicit
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "opsassist-mcp-stdio", Version: b.cfg.Version}, opts)
	t := &mcp.StreamableClientTransport{Endpoint: b.cfg.URL, HTTPClient: b.http}
	cs, err := c.Connect(cctx, t, &mcp.ClientSessionOptions{ProtocolVersion: handshakeVersions()[0]})
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, b.cfg.URL, err)
	}
	if err := b.offer(cctx, cs); err != nil {
		cs.Close()
		return nil, fmt.Errorf("%w at %s: listing tools: %v", ErrUnreachable, b.cfg.URL, err)
	}
	b.mu.Lock()
	b.up = cs
	b.mu.Unlock()
	b.log.Info("connected to the opsassist daemon", zap.String("url", b.cfg.URL), zap.Strings("tools", b.offered))
	return cs, nil
}

// offer lists the daemon's tools and makes srv offer exactly those, each
// forwarded to the daemon. The caller holds b.connMu.
func (b *Bridge) offer(ctx context.Context, cs *mcp.ClientSession) error {
	var names []string
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if err := addTool(b.srv, t, b.call); err != nil {
			b.log.Warn("daemon tool not offered", zap.String("tool", t.Name), zap.Error(err))
			continue
		}
		names = append(names, t.Name)
	}
	var gone []string
	for _, n := range b.offered {
		if !slices.Contains(names, n) {
			gone = append(gone, n)
		}
	}
	if len(gone) > 0 {
		b.srv.RemoveTools(gone...)
	}
	b.offered = names
	return nil
}

// addTool adds t to srv; the SDK panics on a schema it cannot serve (not
// an object), which from another process is an error, not a crash.
func addTool(srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	if t == nil || t.InputSchema == nil {
		return errors.New("no input schema")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unusable tool: %v", r)
		}
	}()
	srv.AddTool(t, h)
	return nil
}

// onToolsChanged re-lists the daemon's tools when it says they changed.
// The list is fetched outside the notification's handler, which must not
// wait on the same session.
func (b *Bridge) onToolsChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done || b.ctx == nil {
		return
	}
	ctx := b.ctx
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.connMu.Lock()
		defer b.connMu.Unlock()
		b.mu.Lock()
		up := b.up
		b.mu.Unlock()
		if up == nil || up != req.Session || ctx.Err() != nil {
			return
		}
		lctx, cancel := context.WithTimeout(ctx, b.cfg.ConnectTimeout)
		defer cancel()
		if err := b.offer(lctx, up); err != nil {
			b.log.Warn("re-listing the daemon's tools failed", zap.Error(err))
		}
	}()
}

// codeRejected is the code of the SDK's "rejected by transport" error
// (internal/jsonrpc2.ErrRejected): the request did not reach the daemon
// or its answer did not come back, which is not the daemon's answer.
const codeRejected = -32005

// call forwards one tool call to the daemon. The daemon's protocol errors
// (an unknown tool, bad arguments) pass through as they are; a daemon
// that cannot be reached is a tool error saying so, and the next call
// connects again. A failed call is not retried: it may have run.
func (b *Bridge) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	cs, err := b.upstream(ctx)
	if err != nil {
		return toolError(err), nil
	}
	p := &mcp.CallToolParams{Meta: req.Params.Meta, Name: req.Params.Name}
	if len(req.Params.Arguments) > 0 {
		p.Arguments = json.RawMessage(req.Params.Arguments)
	}
	res, err := cs.CallTool(ctx, p)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if rpcErr, ok := errors.AsType[*jsonrpc.Error](err); ok && rpcErr.Code != codeRejected {
		return nil, rpcErr
	}
	b.drop(cs)
	b.log.Warn("daemon call failed", zap.String("tool", p.Name), zap.Error(err))
	return toolError(fmt.Errorf("%w (%s): %v; the call may or may not have run — check the audit log before repeating it", ErrUnreachable, b.cfg.URL, err)), nil
}

// drop forgets a broken daemon session, so that the next call connects
// again.
func (b *Bridge) drop(cs *mcp.ClientSession) {
	b.mu.Lock()
	if b.up == cs {
		b.up = nil
	}
	b.mu.Unlock()
	cs.Close()
}

// toolError is a call's result reporting err to the model.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// elicit hands the daemon's elicitation request (a permission
// confirmation) to the local client and its answer back.
func (b *Bridge) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	b.mu.Lock()
	local := b.local
	b.mu.Unlock()
	if local == nil {
		return nil, errors.New("mcpbridge: no local session to ask")
	}
	return local.Elicit(ctx, req.Params)
}

// onProgress forwards the daemon's progress notifications; their tokens
// are the local client's, passed on with its calls.
func (b *Bridge) onProgress(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
	b.mu.Lock()
	local := b.local
	b.mu.Unlock()
	if local != nil {
		local.NotifyProgress(ctx, req.Params)
	}
}
