package chat

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"opsassist/api"
)

// maxFinished bounds the finished requests remembered to tell a late
// answer "answered" or "expired" from "unknown".
const maxFinished = 1024

// permissions holds the pending requests — permission requests and
// ask_user questions (question.go), one registry, one id space — and the
// grants of every conversation. Its methods are safe for concurrent use.
type permissions struct {
	mu       sync.Mutex
	pending  map[string]*pendingRequest
	finished map[string]finishedRequest
	order    []string           // finished ids, oldest first
	grants   map[string][]Grant // conversation → grants
	// withdrawn is set once the server stops (withdrawAll): no request
	// opens any more.
	withdrawn bool
}

// withdrawnAnswer is the answer withdrawAll delivers: no user's, so no
// decision or option can equal it.
const withdrawnAnswer = "\x00withdrawn"

// unaskedAnswer is the answer of a client that denied without asking
// anyone (Session.DenyPermissionUnasked): no user's, so no decision can
// equal it.
const unaskedAnswer = "\x00unasked"

// pendingRequest is one request waiting for its answer. answer has room
// for one decision: whoever removes the request from pending under the
// lock owns it, so it is answered exactly once.
type pendingRequest struct {
	conv, owner string
	answer      chan string
	// question marks an ask_user question; check validates (and
	// normalises) its answer, refusing one that leaves it open.
	question bool
	check    func(string) (string, error)
	// perm or ask is the request as its event carries it, set just
	// before it is emitted (shown), and expires its deadline:
	// Session.Pending lists it again for a reloaded client.
	perm    *api.PermissionRequest
	ask     *api.Question
	expires time.Time
}

// finishedRequest is what became of a request no longer pending.
type finishedRequest struct {
	conv, owner string
	expired     bool
	question    bool
}

func newPermissions() *permissions {
	return &permissions{pending: make(map[string]*pendingRequest), finished: make(map[string]finishedRequest), grants: make(map[string][]Grant)}
}

// MaxPending bounds the permission requests and questions pending at
// once in one conversation: a turn's parallel calls may ask at once,
// but a model calling tools in a loop cannot pile up requests.
const MaxPending = 16

// ErrTooManyPending refuses a permission request or question over
// MaxPending in its conversation: the call is refused at once, and the
// model told so in its result.
var ErrTooManyPending = fmt.Errorf("chat: too many permission requests and questions pending in this conversation (at most %d); wait for the user to answer them", MaxPending)

// ErrStopping refuses a permission request or question once the
// server is stopping (Service.WithdrawRequests).
var ErrStopping = errors.New("chat: the server is stopping; nobody can be asked")

// WithdrawRequests answers every pending permission request and
// question as if its client had left (AnsweredByDisconnect: the call
// does not run) and refuses new ones with ErrStopping. Transports call it
// when shutdown starts, so a turn waiting for a person ends at once
// instead of holding the shutdown until its deadline; turns that do not
// ask go on to their end.
func (s *Service) WithdrawRequests() { s.perms.withdrawAll() }

// withdrawAll is WithdrawRequests.
func (p *permissions) withdrawAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.withdrawn = true
	for id, r := range p.pending {
		delete(p.pending, id)
		p.finish(id, finishedRequest{conv: r.conv, owner: r.owner, expired: true, question: r.question})
		r.answer <- withdrawnAnswer
	}
}

// register opens a request of conv, owned by owner, under a fresh id.
func (p *permissions) register(conv, owner string) (string, *pendingRequest, error) {
	return p.open(&pendingRequest{conv: conv, owner: owner, answer: make(chan string, 1)})
}

// open registers r under a fresh id, unless its conversation has
// MaxPending requests pending (ErrTooManyPending).
func (p *permissions) open(r *pendingRequest) (string, *pendingRequest, error) {
	id := randomID()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, q := range p.pending {
		if q.conv == r.conv {
			n++
		}
	}
	if p.withdrawn {
		return "", nil, ErrStopping
	}
	if n >= MaxPending {
		return "", nil, ErrTooManyPending
	}
	p.pending[id] = r
	return id, r, nil
}

// expire closes request id unanswered. It reports false, with the
// decision, if an answer won the race.
func (p *permissions) expire(id string, r *pendingRequest) (string, bool) {
	p.mu.Lock()
	_, open := p.pending[id]
	if open {
		delete(p.pending, id)
		p.finish(id, finishedRequest{conv: r.conv, owner: r.owner, expired: true, question: r.question})
	}
	p.mu.Unlock()
	if open {
		return "", true
	}
	return <-r.answer, false
}

// answer delivers decision to permission request id of conv, if owner
// owns it.
func (p *permissions) answer(owner, conv, id, decision string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.pending[id]
	if !ok || r.owner != owner || r.conv != conv || r.question {
		return p.refuse(owner, conv, id, false)
	}
	switch decision {
	case api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny, unaskedAnswer:
	default:
		return &Error{Code: api.CodeBadDecision, Err: fmt.Errorf("%w %q: want %s, %s or %s", ErrBadDecision, decision, api.DecisionAllowOnce, api.DecisionAllowSession, api.DecisionDeny)}
	}
	p.deliver(id, r, decision)
	return nil
}

// deliver answers pending request r, id, with v. Called with p.mu held.
func (p *permissions) deliver(id string, r *pendingRequest, v string) {
	delete(p.pending, id)
	p.finish(id, finishedRequest{conv: r.conv, owner: r.owner, question: r.question})
	r.answer <- v
}

// refuse says why request id of conv cannot be answered by owner: it is
// unknown (to them, or of the other kind), answered or expired. Called
// with p.mu held.
func (p *permissions) refuse(owner, conv, id string, question bool) error {
	f, done := p.finished[id]
	switch {
	case !done || f.owner != owner || f.conv != conv || f.question != question:
		if question {
			return &Error{Code: api.CodeQuestionUnknown, Err: fmt.Errorf("%w %q", ErrQuestionUnknown, id)}
		}
		return &Error{Code: api.CodePermissionUnknown, Err: fmt.Errorf("%w %q", ErrPermissionUnknown, id)}
	case f.expired && question:
		return &Error{Code: api.CodeQuestionExpired, Err: fmt.Errorf("%w: %q", ErrQuestionExpired, id)}
	case f.expired:
		return &Error{Code: api.CodePermissionExpired, Err: fmt.Errorf("%w: %q (no answer in time, so the call was denied)", ErrPermissionExpired, id)}
	case question:
		return &Error{Code: api.CodeQuestionAnswered, Err: fmt.Errorf("%w: %q", ErrQuestionAnswered, id)}
	}
	return &Error{Code: api.CodePermissionAnswered, Err: fmt.Errorf("%w: %q", ErrPermissionAnswered, id)}
}

// finish remembers a finished request, forgetting the oldest past
// maxFinished. Called with p.mu held.
func (p *permissions) finish(id string, f finishedRequest) {
	p.finished[id] = f
	p.order = append(p.order, id)
	if len(p.order) > maxFinished {
		delete(p.finished, p.order[0])
		p.order = slices.Delete(p.order, 0, 1)
	}
}

// granted reports whether conv holds a grant for tool and key
// (Confirmation.Key): both must match, so a scope never carries over to
// another tool, and the shown scope, redacted, is never what matches.
func (p *permissions) granted(conv, tool, key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.ContainsFunc(p.grants[conv], func(g Grant) bool { return g.Tool == tool && g.key == key })
}

// grant records an allow_session answer for tool and key, shown as
// scope.
func (p *permissions) grant(conv, tool, scope, key string, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.ContainsFunc(p.grants[conv], func(g Grant) bool { return g.Tool == tool && g.key == key }) {
		p.grants[conv] = append(p.grants[conv], Grant{ID: randomID()[:12], Tool: tool, Scope: scope, GrantedAt: now, key: key})
	}
}

// list returns conv's grants, oldest first.
func (p *permissions) list(conv string) []Grant {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.grants[conv])
}

// revoke removes grant id of conv.
func (p *permissions) revoke(conv, id string) (Grant, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	gs := p.grants[conv]
	i := slices.IndexFunc(gs, func(g Grant) bool { return g.ID == id })
	if i < 0 {
		return Grant{}, &Error{Code: api.CodeNotFound, Err: fmt.Errorf("%w %q", ErrGrantUnknown, id)}
	}
	g := gs[i]
	p.grants[conv] = slices.Delete(gs, i, i+1)
	return g, nil
}

// forget drops a deleted conversation's grants.
func (p *permissions) forget(conv string) {
	p.mu.Lock()
	delete(p.grants, conv)
	p.mu.Unlock()
}

// randomID returns 128 random bits in hex: request ids cannot be guessed.
func randomID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}
