package client

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"opsassist/api"
	"opsassist/nplt"
)

// Permission requests. During Chat the server may ask the user to allow
// a tool call (EventPermission); the turn waits for AnswerPermission, its
// deadline (Event.Permission.ExpiresAt) or the connection's end, and the
// rest of the reply follows. Answers are not requests: they are written
// at once, between the frames of the reply being read. A refused answer
// comes back as an EventError with one of the codes of
// IsPermissionError, which does not fail the turn.

// KindPermissions is the kind of Grants' and RevokeGrant's Result: data
// {"session_id","grants":[Grant…],"revoked"}.
const KindPermissions = "permissions"

// Grant is an allow_session answer of the conversation: calls under its
// Scope run without asking.
type Grant struct {
	ID        string    `json:"id"`
	Tool      string    `json:"tool"`
	Scope     string    `json:"scope"`
	GrantedAt time.Time `json:"granted_at"`
}

// AnswerPermission answers the permission request id with decision
// (api.DecisionAllowOnce, api.DecisionAllowSession or api.DecisionDeny).
// It may be called from an EventHandler during Chat.
func (c *Conn) AnswerPermission(id, decision string) error {
	return c.writeJSON(nplt.PermissionResponse, api.PermissionResponse{RequestID: id, Decision: decision})
}

// DenyUnasked denies the permission request id for a client with no one
// to ask (no terminal): the server then refuses the call as one nobody
// could be asked about, never as the user's no (api.ReasonNoTerminal).
// A server without nplt.FeaturePermissionReason gets a plain deny.
func (c *Conn) DenyUnasked(id string) error {
	resp := api.PermissionResponse{RequestID: id, Decision: api.DecisionDeny}
	if slices.Contains(c.hello.Features, nplt.FeaturePermissionReason) {
		resp.Reason = api.ReasonNoTerminal
	}
	return c.writeJSON(nplt.PermissionResponse, resp)
}

// Grants lists the current conversation's grants.
func (c *Conn) Grants(ctx context.Context) ([]Grant, error) {
	res, err := c.command(ctx, nplt.PermissionGrants, nil, "")
	if err != nil {
		return nil, err
	}
	return decodeGrants(res)
}

// RevokeGrant revokes grant id and returns the grants left.
func (c *Conn) RevokeGrant(ctx context.Context, id string) ([]Grant, error) {
	p, err := json.Marshal(map[string]string{"revoke": id})
	if err != nil {
		return nil, err
	}
	res, err := c.command(ctx, nplt.PermissionGrants, p, "")
	if err != nil {
		return nil, err
	}
	return decodeGrants(res)
}

func decodeGrants(res Result) ([]Grant, error) {
	var d struct {
		Grants []Grant `json:"grants"`
	}
	if res.Kind != KindPermissions {
		return nil, fmt.Errorf("%w: %s result to a permissions command", ErrProtocol, res.Kind)
	}
	if err := res.Decode(&d); err != nil {
		return nil, err
	}
	return d.Grants, nil
}

// IsPermissionError reports whether code refuses a permission answer
// rather than the turn: such an error leaves the reply going.
func IsPermissionError(code string) bool {
	switch code {
	case api.CodePermissionUnknown, api.CodePermissionAnswered, api.CodePermissionExpired, api.CodeBadDecision:
		return true
	}
	return false
}
