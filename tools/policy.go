package tools

import (
	"context"
	"encoding/json"
)

// Decision is a Policy's verdict on one call.
type Decision int

// Policy decisions.
const (
	// Allow runs the call.
	Allow Decision = iota
	// Ask needs the user's confirmation first. Until the permission
	// layer lands, the Registry refuses such calls with a clear error.
	Ask
	// Deny refuses the call.
	Deny
)

// String returns "allow", "ask" or "deny".
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	}
	return "deny"
}

// Policy is consulted before every tool call, after argument validation.
// Permissions, audit and MCP plug in here.
type Policy interface {
	Decide(ctx context.Context, call *Call, spec Spec, args json.RawMessage) (Decision, string)
}

// AllowAll is the Policy that allows every call.
type AllowAll struct{}

// Decide allows.
func (AllowAll) Decide(context.Context, *Call, Spec, json.RawMessage) (Decision, string) {
	return Allow, ""
}
