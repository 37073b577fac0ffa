package chat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/storage/history"
)

// Retention says which saved conversations ApplyRetention deletes. The
// zero value deletes nothing.
type Retention struct {
	// DropEmpty deletes conversations without a user message.
	DropEmpty bool
	// MaxConversations keeps at most this many conversations, the most
	// recently updated; 0: no bound.
	MaxConversations int
	// MaxAge deletes conversations not updated for longer; 0: no bound.
	MaxAge time.Duration
}

// Enabled reports whether r deletes anything at all.
func (r Retention) Enabled() bool {
	return r.DropEmpty || r.MaxConversations > 0 || r.MaxAge > 0
}

// remove deletes conversation c from the history with its uploads and
// forgets its turn lock, grants and indexing state.
func (s *Service) remove(c *history.Conversation) error {
	ups := c.Uploads()
	if err := s.cfg.History.Delete(c.ID()); err != nil {
		return err
	}
	s.forgetTurn(c.ID())
	s.forgetIndexed(c.ID())
	for _, u := range ups {
		if err := s.cfg.Uploads.Remove(u.FileID); err != nil {
			s.log.Warn("removing upload of deleted conversation failed", zap.String("file_id", u.FileID), zap.Error(err))
		}
	}
	return nil
}

// tryLockTurn takes conversation id's turn lock if no turn holds it.
func (s *Service) tryLockTurn(id string) (unlock func(), ok bool) {
	s.mu.Lock()
	ch, found := s.turns[id]
	if !found {
		ch = make(chan struct{}, 1)
		s.turns[id] = ch
	}
	_, live := s.live[id]
	s.mu.Unlock()
	if live {
		return nil, false
	}
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	default:
		return nil, false
	}
}

// ApplyRetention deletes, among all saved conversations (every
// principal's), those r says to: without a user message (DropEmpty), not
// updated for MaxAge, or beyond the MaxConversations most recently
// updated. A conversation with a turn running is never deleted (nor
// counted as kept); a turn that starts once it is deleted finds it gone,
// as after DELETE. It returns how many it deleted.
func (s *Service) ApplyRetention(r Retention) (int, error) {
	if !r.Enabled() {
		return 0, nil
	}
	now := s.cfg.Now()
	kept, deleted := 0, 0
	for _, sum := range s.cfg.History.List() {
		c, err := s.cfg.History.Get(sum.ID)
		if err != nil {
			continue // deleted meanwhile
		}
		drop := (r.MaxAge > 0 && now.Sub(sum.UpdatedAt) > r.MaxAge) ||
			(r.DropEmpty && !hasUserMessage(c)) ||
			(r.MaxConversations > 0 && kept >= r.MaxConversations)
		if !drop {
			kept++
			continue
		}
		unlock, ok := s.tryLockTurn(c.ID())
		if !ok {
			continue // a turn is running: keep it this time
		}
		err = s.remove(c)
		unlock()
		if err != nil {
			return deleted, fmt.Errorf("chat: retention: %w", err)
		}
		deleted++
		s.log.Info("retention deleted a conversation", zap.String("conversation", sum.ID), zap.Time("updated", sum.UpdatedAt))
	}
	return deleted, nil
}

func hasUserMessage(c *history.Conversation) bool {
	for _, m := range c.Messages() {
		if m.Role == "user" {
			return true
		}
	}
	return false
}

// RetentionPolicy is a Retention that may change while
// RunRetentionPolicy runs (the daemon's configuration reload). It is safe
// for concurrent use.
type RetentionPolicy struct {
	mu      sync.Mutex
	r       Retention
	changed chan struct{} // one pending wake-up
}

// NewRetentionPolicy returns a policy holding r.
func NewRetentionPolicy(r Retention) *RetentionPolicy {
	return &RetentionPolicy{r: r, changed: make(chan struct{}, 1)}
}

// Get returns the policy's Retention.
func (p *RetentionPolicy) Get() Retention {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.r
}

// Set replaces the policy's Retention and reports whether it changed; a
// change wakes RunRetentionPolicy, which applies it at once.
func (p *RetentionPolicy) Set(r Retention) bool {
	p.mu.Lock()
	same := p.r == r
	p.r = r
	p.mu.Unlock()
	if !same {
		select {
		case p.changed <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
	return !same
}

// RunRetention applies r at once, then every interval until ctx ends; a
// failure or a panic in one run is logged and the next run goes on. It
// returns when ctx ends. With r not Enabled it returns at once.
func (s *Service) RunRetention(ctx context.Context, r Retention, every time.Duration, tick func(time.Duration) <-chan time.Time) {
	if !r.Enabled() {
		return
	}
	s.RunRetentionPolicy(ctx, NewRetentionPolicy(r), every, tick)
}

// RunRetentionPolicy applies p's Retention at once, then every interval
// and whenever p changes (at once, the interval starting again), until
// ctx ends; while p is not Enabled it only waits for a change. A failure
// or a panic in one run is logged and the next run goes on. tick makes
// the interval's timer (nil: time.After).
func (s *Service) RunRetentionPolicy(ctx context.Context, p *RetentionPolicy, every time.Duration, tick func(time.Duration) <-chan time.Time) {
	if tick == nil {
		tick = time.After
	}
	for {
		var next <-chan time.Time // nil: no run until p changes
		if r := p.Get(); r.Enabled() {
			err := s.guard("retention", func() error {
				_, err := s.ApplyRetention(r)
				return err
			})
			if err != nil {
				s.log.Error("retention failed", zap.Error(err))
			}
			next = tick(every)
		}
		select {
		case <-ctx.Done():
			return
		case <-next:
		case <-p.changed:
		}
	}
}
