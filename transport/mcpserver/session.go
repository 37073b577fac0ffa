package mcpserver

import (
	"context"
	"errors"
	"sync"

	"opsassist/chat"
	"opsassist/tools"
)

// errSessionEnded is the cause with which a session's context, and so
// every call of it, is cancelled when the session ends: the client
// deleted it or left, it expired, the request that carried a call went
// away, or the server is shutting down. A call cancelled by the client
// (notifications/cancelled) has the SDK's cause instead.
var errSessionEnded = errors.New("mcpserver: MCP session ended")

// session is one MCP session's state: who it acts for, the id its calls
// are recorded under, its allow_session grants, the context its calls
// run under and its share of the concurrent calls.
type session struct {
	id  string // "mcp-" and 16 hex digits: the audit log's session
	who chat.Principal

	// ctx is the parent of every call of the session; end cancels it
	// (with errSessionEnded).
	ctx    context.Context
	cancel context.CancelCauseFunc

	// slots bounds the calls running at once (MaxCallsPerSession).
	slots chan struct{}

	mu       sync.Mutex
	grants   map[string]bool            // tool and GrantKey
	requests map[string]context.Context // HTTP requests carrying calls, by callHeader token
}

// maxGrants bounds the allow_session grants of one session; past it an
// allow_session answer allows the one call only.
const maxGrants = 256

// newSession returns the state of a new session of who, its calls
// cancelled when parent is.
func newSession(parent context.Context, who chat.Principal, maxCalls int) *session {
	ctx, cancel := context.WithCancelCause(parent)
	return &session{id: "mcp-" + randomHex(8), who: who, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maxCalls)}
}

// end cancels every call of the session; idempotent.
func (st *session) end() { st.cancel(errSessionEnded) }

// acquire takes one of the session's call slots; false, at once, when
// all are taken.
func (st *session) acquire() bool {
	select {
	case st.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// release returns a slot acquire took.
func (st *session) release() { <-st.slots }

// granted reports whether an allow_session answer of this session
// covers c.
func (st *session) granted(c tools.Confirmation) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.grants[c.Tool+"\x00"+c.GrantKey()]
}

// grant records an allow_session answer to c.
func (st *session) grant(c tools.Confirmation) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.grants == nil {
		st.grants = make(map[string]bool)
	}
	if len(st.grants) < maxGrants {
		st.grants[c.Tool+"\x00"+c.GrantKey()] = true
	}
}

// track records the context of an HTTP request that may carry calls
// under token; the returned func forgets it (once the request is
// served).
func (st *session) track(token string, ctx context.Context) func() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.requests == nil {
		st.requests = make(map[string]context.Context)
	}
	st.requests[token] = ctx
	return func() {
		st.mu.Lock()
		delete(st.requests, token)
		st.mu.Unlock()
	}
}

// request returns the context of the HTTP request token names; false
// when that request is already served (its client went away).
func (st *session) request(token string) (context.Context, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	ctx, ok := st.requests[token]
	return ctx, ok
}
