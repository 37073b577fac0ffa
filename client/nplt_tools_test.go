package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestToolsOverNPLT: Tools sends an empty TOOL_LIST and joins the
// TOOL_LIST frames of the reply into the catalog.
func TestToolsOverNPLT(t *testing.T) {
	const doc = `{"tools":[{"name":"sys_monitor","description":"d","source":"builtin","risk":"read_only","parameters":{},"available":true}],"servers":[]}`
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.ToolList); len(f.Payload) != 0 {
			fc.Fail("TOOL_LIST payload %q", f.Payload)
		}
		fc.Send(nplt.ToolList, []byte(doc[:20]))
		fc.Send(nplt.ToolList, []byte(doc[20:]))
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	cat, raw, err := c.Tools(ctx)
	if err != nil || string(raw) != doc || len(cat.Tools) != 1 || cat.Tools[0].Name != "sys_monitor" {
		t.Fatalf("Tools = %+v %s %v", cat, raw, err)
	}
}

// TestCallToolOverNPLT: CallTool sends {"name","arguments"} and decodes
// the result, a failed call included; an ERROR reply is a *ServerError.
func TestCallToolOverNPLT(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		var p nplt.ToolCallPayload
		fc.ExpectJSON(nplt.ToolCall, &p)
		if p.Name != "look" || string(p.Arguments) != `{"a":1}` {
			fc.Fail("payload %+v", p)
		}
		fc.SendJSON(nplt.ToolCall, api.ToolResult{Success: false, Error: "denied by policy", DurationMS: 3})
		fc.End()
		fc.ExpectJSON(nplt.ToolCall, &p)
		fc.Error(api.CodeNotFound, "no such tool")
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	r, err := c.CallTool(ctx, "look", json.RawMessage(`{"a":1}`))
	if err != nil || r.Success || r.Error != "denied by policy" || r.DurationMS != 3 {
		t.Fatalf("CallTool = %+v %v", r, err)
	}
	if _, err := c.CallTool(ctx, "nope", nil); !errors.Is(err, &ServerError{Code: api.CodeNotFound}) {
		t.Fatalf("unknown tool: %v", err)
	}
}

// TestCallToolCancelled: when ctx ends during the call, the client sends
// CANCEL, and the connection goes on serving the next request.
func TestCallToolCancelled(t *testing.T) {
	running := make(chan struct{})
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolCall)
		close(running)
		fc.Expect(nplt.Cancel)
		fc.SendJSON(nplt.ToolCall, api.ToolResult{Error: "context canceled"})
		fc.End()
		fc.Expect(nplt.ToolList)
		fc.Send(nplt.ToolList, []byte(`{"tools":[],"servers":[]}`))
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-running; cancel() }()
	if _, err := c.CallTool(ctx, "slow", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool = %v", err)
	}
	tctx, tcancel := testContext(t)
	defer tcancel()
	if cat, _, err := c.Tools(tctx); err != nil || cat.Tools == nil {
		t.Fatalf("Tools after the cancelled call: %+v %v", cat, err)
	}
}

// TestToolsUnsupported: a server that did not announce the feature is
// sent neither frame.
func TestToolsUnsupported(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Greet()
		fc.ExpectJSON(nplt.Hello, new(nplt.HelloPayload))
		fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "old", SessionID: npltfake.Session, Features: []string{nplt.FeatureCancel}})
		fc.ExpectClose()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	if _, _, err := c.Tools(ctx); !errors.Is(err, ErrToolsUnsupported) {
		t.Fatalf("Tools = %v", err)
	}
	if _, err := c.CallTool(ctx, "x", nil); !errors.Is(err, ErrToolsUnsupported) {
		t.Fatalf("CallTool = %v", err)
	}
}

// TestCallToolNotSent: a call whose ctx ended before its TOOL_CALL went
// out sends nothing — no CANCEL, which the server would apply to
// another request (a turn it runs) —, and the next request is the
// next frame the server reads.
func TestCallToolNotSent(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolList) // not CANCEL, not TOOL_CALL
		fc.Send(nplt.ToolList, []byte(`{"tools":[],"servers":[]}`))
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.CallTool(ctx, "x", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool = %v", err)
	}
	tctx, tcancel := testContext(t)
	defer tcancel()
	if _, _, err := c.Tools(tctx); err != nil {
		t.Fatalf("Tools after the call never sent: %v", err)
	}
}

// TestCallToolCancelBeforeNext: the CANCEL of a call whose ctx ended
// goes out before the request another goroutine waits to send, so it
// reaches the call, not that request.
func TestCallToolCancelBeforeNext(t *testing.T) {
	running := make(chan struct{})
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ToolCall)
		close(running)
		fc.Expect(nplt.Cancel)
		fc.SendJSON(nplt.ToolCall, api.ToolResult{Error: "cancelled"})
		fc.End()
		fc.Expect(nplt.ToolList)
		fc.Send(nplt.ToolList, []byte(`{"tools":[],"servers":[]}`))
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	tctx, tcancel := testContext(t)
	defer tcancel()
	listed := make(chan error, 1)
	go func() {
		<-running
		go func() { _, _, err := c.Tools(tctx); listed <- err }()
		cancel()
	}()
	if _, err := c.CallTool(ctx, "slow", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool = %v", err)
	}
	if err := <-listed; err != nil {
		t.Fatalf("Tools queued behind the cancelled call: %v", err)
	}
}
