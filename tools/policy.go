package tools

import (
	"context"
	"encoding/json"

	"opsassist/api"
)

// Decision is a Policy's verdict on one call.
type Decision int

// Policy decisions.
const (
	// Allow runs the call.
	Allow Decision = iota
	// Ask runs the call only once the user confirms it: the Registry
	// asks through Call.Confirm and refuses the call when there is no
	// one to ask (Confirm nil) or the answer is no.
	Ask
	// Deny refuses the call; the user is never asked.
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

// Verdict is what a Policy decides about one call.
type Verdict struct {
	Decision Decision
	// Code, with Deny, is the failure code the refused call's Result
	// carries (CodeSecretFile, CodeCommandNotAllowed); empty gives the
	// one the deciding party implies (CodeDenied, CodeDeniedByRole…).
	Code string
	// Reason says why, for the model (Deny) and for the user (Ask): one
	// short sentence, in Chinese and English when the rule cannot tell
	// the user's language.
	Reason string
	// ReasonText is Reason language by language, when the Policy wrote
	// it in both (Reason is then ReasonText.Both()): the user is shown
	// the one of their language. Zero: Reason alone.
	ReasonText api.Text
	// Scope is what an "allow for this session" answer to an Ask covers:
	// the tool and the command or path prefix the call falls under
	// (e.g. "command_executor:systemctl restart nginx",
	// "file_download:/etc/"), never more. Empty: the tool and its exact
	// arguments. It is shown to the user, so secrets in it are
	// redacted.
	Scope string
	// ScopeKey, with Scope, is the key grants of Scope are matched on
	// (api.GrantKey of the unredacted scope), so that two scopes that
	// differ only in a redacted secret are not one grant. Empty with a
	// Scope: api.GrantKey of Scope as it is.
	ScopeKey string
	// Shown, if set, is the call's arguments as the user is shown them,
	// secrets redacted; nil shows the arguments as they are.
	Shown json.RawMessage
	// Approved, with Allow, runs the call as if the user had confirmed
	// it (Call.Approved): an operator's allow rule for what would
	// otherwise be asked (an ask-tier command, a path outside the roots).
	Approved bool
	// By says what decided: DecidedByDefault (the tool's risk, the
	// command tier, the path class), DecidedByRule (a permission rule,
	// named in Rule) or DecidedByRole (the caller's role, named in
	// Rule). The audit log records it.
	By string
	// Rule names the rule or role that decided, as configured:
	// "permissions.rules[2]", "roles.viewer.rules[0]", "roles.viewer".
	Rule string
}

// Policy is consulted before every tool call, after argument validation.
// The permission policy (package tools/policy) is one; rate limits are
// not a Policy but the Registry's RateLimiter, asked after it. Without
// one, the Registry
// uses AllowAll, and what a call may do is bounded by each tool's own
// checks (the command tiers, the path guard).
type Policy interface {
	Decide(ctx context.Context, call *Call, spec Spec, args json.RawMessage) Verdict
}

// AllowAll is the Policy that allows every call.
type AllowAll struct{}

// Decide allows.
func (AllowAll) Decide(context.Context, *Call, Spec, json.RawMessage) Verdict {
	return Verdict{Decision: Allow}
}

// Confirmation is a call a Policy put at Ask, as the user is asked about
// it (Call.Confirm).
type Confirmation struct {
	// ToolCallID is the model's id of the call (Call.ToolCallID).
	ToolCallID string
	// Tool is the tool's name; Args the arguments as shown (Verdict.Shown).
	Tool string
	Args json.RawMessage
	// Risk is the tool's risk level; Reason, ReasonText and Scope are
	// the Verdict's.
	Risk       Risk
	Reason     string
	ReasonText api.Text
	Scope      string
	// Key is what an allow_session grant of c is matched on
	// (api.GrantKey of the unredacted scope or arguments); Args and
	// Scope are for display only.
	Key string
	// Repeat marks a permission question about a call the loop guard
	// stopped, whose Reason says it repeats: it is never answered by a
	// question already in flight that did not say so.
	Repeat bool
}

// GrantScope is what an "allow for this session" answer to c covers, as
// shown (api.GrantScope: its Scope, or, when the Verdict gave none, the
// tool and these arguments, redacted).
func (c Confirmation) GrantScope() string { return api.GrantScope(c.Tool, c.Scope, c.Args) }

// GrantKey is what a grant of c is matched on: c.Key, or, for a
// Confirmation built without one, api.GrantKey of its shown fields.
func (c Confirmation) GrantKey() string {
	if c.Key != "" {
		return c.Key
	}
	return api.GrantKey(c.Tool, c.Scope, c.Args)
}

// Confirmed is the answer to a Confirmation.
type Confirmed struct {
	// Allowed runs the call.
	Allowed bool
	// By says who or what answered: ByUser, BySessionGrant, ByTimeout,
	// ByDisconnect or ByCancel.
	By string
}

// Who answered a Confirmation.
const (
	ByUser         = "user"
	BySessionGrant = "session_grant"
	ByTimeout      = "timeout"
	ByDisconnect   = "disconnect"
	ByCancel       = "cancel"
)
