package cli

import (
	"context"
	"os"
	"sync"
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
	cancelReq context.CancelFunc
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
