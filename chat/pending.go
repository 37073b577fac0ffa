package chat

import (
	"slices"
	"time"

	"opsassist/api"
)

// Pending is what a conversation's running turn is waiting for the user
// to answer: its open permission requests and ask_user questions, each
// as its event carried it (same fields, same request id), oldest
// deadline first. A client that lost the events (a reloaded web page)
// shows them again from here and answers them as usual.
type Pending struct {
	Permissions []api.PermissionRequest `json:"permissions"`
	Questions   []api.Question          `json:"questions"`
}

// Pending returns the requests of the session's conversation that its
// principal can still answer: emitted, unanswered and not past their
// deadline. Other principals' requests are never listed.
func (se *Session) Pending() Pending {
	return se.svc.perms.pendingOf(se.who.ID, se.ID(), se.svc.cfg.Now())
}

// shown records what request id's event carried, once it is emitted, so
// pendingOf can list it; a request already gone is left alone.
func (p *permissions) shown(id string, perm *api.PermissionRequest, q *api.Question, expires time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.pending[id]; ok {
		r.perm, r.ask, r.expires = perm, q, expires
	}
}

// pendingOf lists owner's shown requests of conv that expire after now.
func (p *permissions) pendingOf(owner, conv string, now time.Time) Pending {
	p.mu.Lock()
	var rs []*pendingRequest
	for _, r := range p.pending {
		if r.owner == owner && r.conv == conv && (r.perm != nil || r.ask != nil) && r.expires.After(now) {
			rs = append(rs, r)
		}
	}
	out := Pending{Permissions: []api.PermissionRequest{}, Questions: []api.Question{}}
	slices.SortFunc(rs, func(a, b *pendingRequest) int { return a.expires.Compare(b.expires) })
	for _, r := range rs {
		if r.perm != nil {
			out.Permissions = append(out.Permissions, *r.perm)
		} else {
			out.Questions = append(out.Questions, *r.ask)
		}
	}
	p.mu.Unlock()
	return out
}

// HasPending reports whether the session's conversation has a request
// waiting for its principal's answer (Pending is not empty).
func (se *Session) HasPending() bool {
	pd := se.Pending()
	return len(pd.Permissions) > 0 || len(pd.Questions) > 0
}
