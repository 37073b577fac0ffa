package cli

import (
	"context"
	"os"
	"sync"
	"time"
)

// watchInterrupts calls on for each signal received on ch until stop is
// called. stop waits for the watching goroutine to exit.
func watchInterrupts(ch <-chan os.Signal, on func()) (stop func()) {
	if ch == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ch:
				on()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}

// interruptRouter sends an interrupt to the request in progress, or,
// when there is none, calls its idle function (if any).
type interruptRouter struct {
	mu        sync.Mutex
	cancelReq func() // what an interrupt does to the request in progress
	idle      func()
}

func (ir *interruptRouter) interrupt() {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	switch {
	case ir.cancelReq != nil:
		ir.cancelReq()
	case ir.idle != nil:
		ir.idle()
	}
}

// setIdle sets what an interrupt does between requests; nil ignores it.
func (ir *interruptRouter) setIdle(f func()) {
	ir.mu.Lock()
	ir.idle = f
	ir.mu.Unlock()
}

// request returns a context for one request that an interrupt cancels.
func (ir *interruptRouter) request(ctx context.Context) (context.Context, func()) {
	rctx, cancel := context.WithCancel(ctx)
	ir.mu.Lock()
	ir.cancelReq = cancel
	ir.mu.Unlock()
	return rctx, func() {
		ir.mu.Lock()
		ir.cancelReq = nil
		ir.mu.Unlock()
		cancel()
	}
}

// defaultCancelWait is how long after an interrupt the CLI waits for the
// server to end a cancelled answer (CLI.CancelWait).
const defaultCancelWait = 3 * time.Second

// turnCancel is what interrupts do to one streaming chat answer: the
// first asks the server to stop the turn (send, i.e. client.Conn.Cancel)
// and lets the reply run to the end the server gives it, for up to wait;
// a second interrupt, the wait passing, or send failing (a server that
// cannot cancel) cancels the request's context, which only stops
// waiting for and showing the answer.
type turnCancel struct {
	send   func() error
	wait   time.Duration
	cancel context.CancelFunc

	mu    sync.Mutex
	n     int         // interrupts so far
	sent  bool        // CANCEL went out
	timer *time.Timer // ends the wait
}

func (tc *turnCancel) interrupt() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.n++
	if tc.n == 1 && tc.send() == nil {
		tc.sent = true
		tc.timer = time.AfterFunc(tc.wait, tc.cancel)
		return
	}
	tc.cancel()
}

// stop ends the wait's timer.
func (tc *turnCancel) stop() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.timer != nil {
		tc.timer.Stop()
	}
}

// cancelSent reports whether an interrupt sent CANCEL.
func (tc *turnCancel) cancelSent() bool {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.sent
}

// turn returns a context for one chat request whose interrupts go to a
// turnCancel with send and wait, and that turnCancel, to ask whether
// CANCEL was sent.
func (ir *interruptRouter) turn(ctx context.Context, send func() error, wait time.Duration) (context.Context, *turnCancel, func()) {
	rctx, cancel := context.WithCancel(ctx)
	tc := &turnCancel{send: send, wait: wait, cancel: cancel}
	ir.mu.Lock()
	ir.cancelReq = tc.interrupt
	ir.mu.Unlock()
	return rctx, tc, func() {
		ir.mu.Lock()
		ir.cancelReq = nil
		ir.mu.Unlock()
		tc.stop()
		cancel()
	}
}
