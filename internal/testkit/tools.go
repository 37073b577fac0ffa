package testkit

import (
	"context"
	"encoding/json"

	"opsassist/tools"
)

// PanicTool is a read-only tool named Name that panics when run.
type PanicTool struct{ Name string }

var _ tools.Tool = PanicTool{}

// Spec describes the tool.
func (p PanicTool) Spec() tools.Spec {
	return tools.Spec{Name: p.Name, Description: "panics", Parameters: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskReadOnly}
}

// Run panics.
func (p PanicTool) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	panic("tool " + p.Name + " panicked")
}

// WaitTool is the read-only tool "wait": a call closes Started, blocks
// until its context ends, closes Cancelled and returns the context's
// error. Run it once.
type WaitTool struct{ Started, Cancelled chan struct{} }

var _ tools.Tool = WaitTool{}

// NewWaitTool returns a WaitTool with its channels made.
func NewWaitTool() WaitTool {
	return WaitTool{Started: make(chan struct{}), Cancelled: make(chan struct{})}
}

// Spec describes the tool.
func (WaitTool) Spec() tools.Spec {
	return tools.Spec{Name: "wait", Description: "waits", Parameters: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskReadOnly}
}

// Run waits for the call's cancellation.
func (w WaitTool) Run(ctx context.Context, _ *tools.Call, _ json.RawMessage) (any, error) {
	close(w.Started)
	<-ctx.Done()
	close(w.Cancelled)
	return nil, ctx.Err()
}
