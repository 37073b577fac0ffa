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
	// Ask needs the user's confirmation first. The Registry cannot ask
	// yet (package tools/askuser is its future home) and refuses such
	// calls with an error saying so.
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
// It is the hook the permission policy (package tools/policy, issue 12)
// and rate limits (package tools/ratelimit) fill. Today no code sets one:
// the daemon's Registry uses AllowAll, and what a call may do is bounded
// by each tool's own checks (the command whitelist, the path guard).
type Policy interface {
	Decide(ctx context.Context, call *Call, spec Spec, args json.RawMessage) (Decision, string)
}

// AllowAll is the Policy that allows every call.
type AllowAll struct{}

// Decide allows.
func (AllowAll) Decide(context.Context, *Call, Spec, json.RawMessage) (Decision, string) {
	return Allow, ""
}
