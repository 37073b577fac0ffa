package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// runWithRetries runs an allowed call, retrying transient failures
// (RetryPolicy): each attempt has its own Spec.Timeout, and the wait
// between attempts ends at once with ctx. It records the attempts and
// the final error's class in rec — a call whose ctx was cancelled while
// it ran is StatusCancelled, with no class; the model's error says "(tried N
// times)" when the tool ran more than once.
func (r *Registry) runWithRetries(ctx context.Context, e *entry, call *Call, args json.RawMessage, rec *CallRecord) (Result, string) {
	timeout := e.spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var (
		out   any
		err   error
		class ErrorClass
		// stopped: the caller's ctx was cancelled when the last attempt
		// ended (not during the wait before a retry).
		stopped bool
	)
	for attempt := 1; ; attempt++ {
		rec.Attempts = attempt
		out, err = r.attempt(ctx, e.tool, call, args, timeout)
		stopped = errors.Is(ctx.Err(), context.Canceled)
		class = Classify(err)
		if err == nil || attempt > r.cfg.Retry.MaxRetries || !retryable(err, class, e.spec.Risk) || ctx.Err() != nil {
			break
		}
		d := r.cfg.Retry.delay(attempt, r.cfg.Jitter())
		r.cfg.Logger.Debug("retrying tool call", zap.String("tool", e.spec.Name), zap.Int("attempt", attempt),
			zap.String("class", string(class)), zap.Duration("delay", d))
		if !sleep(ctx, d) {
			break
		}
	}
	rec.ErrorClass = class
	res := Result{Success: err == nil}
	if out != nil {
		b, merr := json.Marshal(out)
		if merr != nil {
			rec.ErrorClass = ClassExecution
			return failure("%s returned unencodable output: %v", e.spec.Name, merr), StatusError
		}
		res.Output = b
	}
	if err == nil {
		return res, StatusOK
	}
	status := StatusError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		status = StatusTimeout
	case stopped:
		// The caller stopped it while it ran (a cancelled turn or direct
		// call, a client gone), not the tool's Timeout: no failure of
		// the tool.
		status, rec.ErrorClass = StatusCancelled, ClassNone
	}
	res.Error, res.Code = err.Error(), codeOf(err)
	if rec.Attempts > 1 {
		res.Error += fmt.Sprintf(" (tried %d times)", rec.Attempts)
	}
	return res, status
}

// attempt runs the tool once, bounded by timeout. A tool that returns
// no error after its deadline passed has timed out all the same.
func (r *Registry) attempt(ctx context.Context, t Tool, call *Call, args json.RawMessage, timeout time.Duration) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := r.run(ctx, t, call, args)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s: %w", timeout, err)
	}
	return out, err
}

// sleep waits d, or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
