package chat

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"opsassist/api"
)

// DefaultPermissionTimeout is how long a permission request waits for
// its answer when Config.PermissionTimeout is not set.
const DefaultPermissionTimeout = 120 * time.Second

// Confirmation is a tool call the agent asks the user to allow
// (Responder.Confirm). It mirrors the tool layer's confirmation, which
// the core does not import.
type Confirmation struct {
	// ToolCallID is the model's id of the call.
	ToolCallID string
	// Tool is the tool's name; Args its arguments as the user sees them,
	// secrets redacted.
	Tool string
	Args json.RawMessage
	// Risk is the tool's risk level; Reason says why the user is asked,
	// in both languages, and ReasonText, when set, says it language by
	// language (api.PermissionRequest's reason_zh and reason_en).
	Risk       string
	Reason     string
	ReasonText api.Text
	// Scope is what an allow_session answer covers: the tool and its
	// command or path prefix, secrets redacted: shown and listed with
	// the grants. Empty: the tool and these exact arguments.
	Scope string
	// Key is what a grant or a denial of c is matched on: a hash of the
	// unredacted scope or arguments (api.GrantKey), so that calls that
	// differ only in what redaction hides are never one grant. Empty:
	// api.GrantKey of Scope and Args as shown.
	Key string
	// Repeat marks a question about a call that keeps repeating (the
	// loop guard stopped it; Reason says so): it is asked on its own,
	// never answered by a request of the same scope already in flight
	// for a call that did not repeat. A denial earlier in the turn still
	// answers it.
	Repeat bool
}

// scope is what a grant or denial of c covers as shown, with c.Tool
// (api.GrantScope: its Scope, or the tool and its arguments).
func (c Confirmation) scope() string { return api.GrantScope(c.Tool, c.Scope, c.Args) }

// grantKey is what a grant or denial of c is matched on (Key).
func (c Confirmation) grantKey() string {
	if c.Key != "" {
		return c.Key
	}
	return api.GrantKey(c.Tool, c.Scope, c.Args)
}

// Confirmed is the answer to a Confirmation.
type Confirmed struct {
	// Allowed runs the call.
	Allowed bool
	// By says who or what answered (AnsweredBy*).
	By string
}

// Who or what answered a Confirmation (Confirmed.By).
const (
	// AnsweredByUser: the user's decision, now or earlier in the turn.
	AnsweredByUser = "user"
	// AnsweredBySessionGrant: an allow_session grant of the conversation.
	AnsweredBySessionGrant = "session_grant"
	// AnsweredByTimeout: no answer before the request expired.
	AnsweredByTimeout = "timeout"
	// AnsweredByDisconnect: the client left before answering.
	AnsweredByDisconnect = "disconnect"
	// AnsweredByNoClient: the client had no one to ask (no terminal)
	// and denied without asking (Session.DenyPermissionUnasked).
	AnsweredByNoClient = "no_client"
	// AnsweredByCancel: the user cancelled the turn (Session.Cancel),
	// which withdraws its pending requests.
	AnsweredByCancel = "cancel"
)

// Grant is an allow_session answer: calls under its Scope run without
// asking for the rest of the conversation, until revoked.
type Grant struct {
	ID        string    `json:"id"`
	Tool      string    `json:"tool"`
	Scope     string    `json:"scope"`
	GrantedAt time.Time `json:"granted_at"`

	// key is what the grant is matched on (Confirmation.Key): a hash,
	// never listed; Scope is the redacted text shown.
	key string
}

// Errors answering a permission request. Each is a *Error whose Code a
// transport sends; match them with errors.Is.
var (
	// ErrPermissionUnknown: no such request for this conversation and
	// principal (never issued, another's, or long gone).
	ErrPermissionUnknown = errors.New("chat: unknown permission request")
	// ErrPermissionAnswered: the request was answered already.
	ErrPermissionAnswered = errors.New("chat: permission request already answered")
	// ErrPermissionExpired: the request timed out (or its client left)
	// before the answer came.
	ErrPermissionExpired = errors.New("chat: permission request expired")
	// ErrBadDecision: the decision is not one of the request's options.
	ErrBadDecision = errors.New("chat: bad decision")
	// ErrCannotAsk is what a transport's Emit returns for a permission
	// request its client cannot answer (a published NPLT client): the
	// call is refused without waiting.
	ErrCannotAsk = errors.New("chat: this client cannot answer permission requests")
	// ErrGrantUnknown: no such grant in the conversation.
	ErrGrantUnknown = errors.New("chat: unknown grant")
)

// asker asks the user of one turn: it emits permission requests and
// remembers what the user denied in the turn. Safe for concurrent use
// (parallel tool calls).
type asker struct {
	svc         *Service
	conv, owner string
	emit        Emit // serialised by the turn's responder

	mu     sync.Mutex
	denied map[string]bool
	// asking holds the requests in flight, by tool and scope: a second
	// call of the same scope waits for the first one's answer instead of
	// asking again.
	asking map[string]*flight
}

// flight is one permission request in flight; done closes once its
// answer is set.
type flight struct {
	done chan struct{}
	ans  Confirmed
	err  error
}

// confirm asks about c: a denial earlier in the turn or a grant of the
// conversation answers at once; otherwise a request is registered, then
// emitted, and its answer, its deadline or ctx ends the wait.
// Parallel calls of one tool and scope share one request: the first
// asks, the others wait for its answer (or their own ctx) and get the
// same decision.
func (a *asker) confirm(ctx context.Context, c Confirmation) (Confirmed, error) {
	key := c.Tool + "\x00" + c.grantKey() // the turn's denials, by tool and scope
	flightKey := key
	if c.Repeat {
		// A repeating call's yes covers that call only: its raw
		// arguments are part of the key.
		flightKey += "\x00repeat\x00" + api.GrantKey(c.Tool, "", c.Args)
	}
	a.mu.Lock()
	if a.denied[key] {
		a.mu.Unlock()
		return Confirmed{By: AnsweredByUser}, nil
	}
	if f := a.asking[flightKey]; f != nil {
		a.mu.Unlock()
		select {
		case <-f.done:
			return f.ans, f.err
		case <-ctx.Done():
			if userCancelled(ctx) {
				return Confirmed{By: AnsweredByCancel}, nil
			}
			return Confirmed{By: AnsweredByDisconnect}, nil
		}
	}
	f := &flight{done: make(chan struct{})}
	if a.asking == nil {
		a.asking = make(map[string]*flight)
	}
	a.asking[flightKey] = f
	a.mu.Unlock()
	defer func() { // even if asking panics, the waiters are released
		a.mu.Lock()
		delete(a.asking, flightKey)
		a.mu.Unlock()
		close(f.done)
	}()
	f.ans, f.err = a.confirmOnce(ctx, c, key)
	return f.ans, f.err
}

// confirmOnce is confirm for the first call of a scope: it asks.
func (a *asker) confirmOnce(ctx context.Context, c Confirmation, key string) (Confirmed, error) {
	scope, gkey := c.scope(), c.grantKey()
	p := a.svc.perms
	if p.granted(a.conv, c.Tool, gkey) {
		return Confirmed{Allowed: true, By: AnsweredBySessionGrant}, nil
	}
	timeout := a.svc.cfg.PermissionTimeout
	id, r, err := p.register(a.conv, a.owner)
	if err != nil {
		return Confirmed{}, err
	}
	expires := a.svc.cfg.Now().Add(timeout)
	req := &api.PermissionRequest{
		RequestID: id, ToolCallID: c.ToolCallID, Tool: c.Tool, Args: c.Args, Risk: c.Risk, Reason: c.Reason,
		ReasonZh: c.ReasonText.Zh, ReasonEn: c.ReasonText.En,
		Options:   []string{api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny},
		ExpiresAt: expires.UTC().Format(time.RFC3339),
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("{}")
	}
	p.shown(id, req, nil, expires)
	if err := a.emit(Event{Kind: KindPermissionRequest, Permission: req}); err != nil {
		p.expire(id, r)
		if errors.Is(err, ErrCannotAsk) {
			return Confirmed{}, ErrCannotAsk
		}
		return Confirmed{By: AnsweredByDisconnect}, nil
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var decision string
	select {
	case decision = <-r.answer:
	case <-timer.C:
		if d, expired := p.expire(id, r); !expired {
			decision = d
			break
		}
		return Confirmed{By: AnsweredByTimeout}, nil
	case <-ctx.Done():
		if d, expired := p.expire(id, r); !expired {
			decision = d
			break
		}
		if userCancelled(ctx) {
			return Confirmed{By: AnsweredByCancel}, nil
		}
		return Confirmed{By: AnsweredByDisconnect}, nil
	}
	switch decision {
	case withdrawnAnswer: // the server is stopping
		return Confirmed{By: AnsweredByDisconnect}, nil
	case unaskedAnswer: // nobody was asked: not a denial to remember
		return Confirmed{By: AnsweredByNoClient}, nil
	}
	if allowed, session := api.DecisionAllows(decision); allowed {
		if session {
			p.grant(a.conv, c.Tool, scope, gkey, a.svc.cfg.Now())
		}
		return Confirmed{Allowed: true, By: AnsweredByUser}, nil
	}
	a.mu.Lock()
	if a.denied == nil {
		a.denied = make(map[string]bool)
	}
	a.denied[key] = true
	a.mu.Unlock()
	return Confirmed{By: AnsweredByUser}, nil
}

// AnswerPermission answers permission request id of the session's
// conversation with decision (api.Decision*). A request of another
// conversation or principal is unknown; a late answer is answered or
// expired; each error is a *Error with its code.
func (se *Session) AnswerPermission(id, decision string) error {
	if decision == unaskedAnswer {
		decision = "" // the internal value is no decision a client gives
	}
	return se.svc.perms.answer(se.who.ID, se.ID(), id, decision)
}

// DenyPermissionUnasked answers permission request id as
// AnswerPermission does with deny, for a client that had no one to ask
// (api.ReasonNoTerminal): the call is refused as one this client cannot
// be asked about (AnsweredByNoClient), not as the user's no.
func (se *Session) DenyPermissionUnasked(id string) error {
	return se.svc.perms.answer(se.who.ID, se.ID(), id, unaskedAnswer)
}

// Grants returns the allow_session grants of the session's conversation.
func (se *Session) Grants() []Grant { return se.svc.perms.list(se.ID()) }

// RevokeGrant removes grant id of the session's conversation: its scope
// is asked about again.
func (se *Session) RevokeGrant(id string) (Grant, error) { return se.svc.perms.revoke(se.ID(), id) }
