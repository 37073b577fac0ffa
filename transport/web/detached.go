package web

import (
	"context"
	"sync"
	"time"
)

// Bounds on detached turns (detachedTurns).
const (
	// MaxDetachedPerPrincipal is how many chat turns of one principal
	// may run on after their clients left, waiting for an answer.
	MaxDetachedPerPrincipal = 4
	// MaxDetached is how many may in all.
	MaxDetached = 32
)

// detachedTurns counts the chat turns that run on without a handler:
// their client left while they waited for a person (a permission request
// or question pending), so the handler returned and freed its
// connection, and the turn goes on in a goroutine until it ends. A turn
// over a bound, or after close, is not admitted: the caller cancels it,
// as a client's leaving does otherwise.
type detachedTurns struct {
	perPrincipal, max int

	mu     sync.Mutex
	n      int
	by     map[string]int // principal ID → detached turns
	closed bool
	wg     sync.WaitGroup // one per admitted turn, Done at release
}

func newDetachedTurns(perPrincipal, max int) *detachedTurns {
	return &detachedTurns{perPrincipal: perPrincipal, max: max, by: make(map[string]int)}
}

// admit takes a place for a turn of principal; false when a bound is
// reached or the server is shutting down. Each true is followed by one
// release(principal).
func (d *detachedTurns) admit(principal string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.n >= d.max || d.by[principal] >= d.perPrincipal {
		return false
	}
	d.n++
	d.by[principal]++
	d.wg.Add(1)
	return true
}

// release gives back a place admit took.
func (d *detachedTurns) release(principal string) {
	d.mu.Lock()
	d.n--
	if d.by[principal]--; d.by[principal] <= 0 {
		delete(d.by, principal)
	}
	d.mu.Unlock()
	d.wg.Done()
}

// count is the number of detached turns.
func (d *detachedTurns) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// close admits no more turns and waits until the detached ones ended or
// ctx ends (then it returns ctx's error; the caller cancels them and
// calls wait).
func (d *detachedTurns) close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait waits until every detached turn ended; call it after close.
func (d *detachedTurns) wait() { d.wg.Wait() }

// detachedGrace is how long a Shutdown whose context has ended still
// waits for cancelled detached turns before it returns.
const detachedGrace = 2 * time.Second
