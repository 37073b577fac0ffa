package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.uber.org/zap"

	"opsassist/rdt"
)

// Defaults of the busy retry (Downloader.BusyRetry, BusyBackoff).
const (
	defaultBusyRetry = 30 * time.Second
	busyBackoffMin   = 250 * time.Millisecond
	busyBackoffMax   = 4 * time.Second
)

// BusyError is a download the RDT server still refused as busy (too many
// transfers, from this address or in all) when Fetch stopped retrying
// it. It unwraps to the last refusal, which matches rdt.ErrBusy.
type BusyError struct {
	// Attempts is how many times the download was asked for.
	Attempts int
	// Waited is the time from the first refusal to giving up.
	Waited time.Duration
	// Err is the last refusal.
	Err error
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("client: server still busy after %d attempts in %v: %v", e.Attempts, e.Waited.Round(100*time.Millisecond), e.Err)
}

func (e *BusyError) Unwrap() error { return e.Err }

// downloadRDT runs rdt.Download (c.download in tests) and, while the
// server refuses it as busy, runs it again after a backoff with jitter
// (c.BusyBackoff, doubling from 250 ms to 4 s), telling c.OnBusy before
// each wait, for at most c.BusyRetry after the first refusal. Any other
// outcome is returned at once; so is the refusal when the next wait
// would end past BusyRetry (as a *BusyError), or ctx's error when ctx
// ends during a wait.
func (c *Downloader) downloadRDT(ctx context.Context, cfg rdt.ClientConfig) (rdt.Stats, error) {
	download := c.download
	if download == nil {
		download = rdt.Download
	}
	budget := c.BusyRetry
	if budget == 0 {
		budget = defaultBusyRetry
	}
	backoff := c.BusyBackoff
	if backoff == (Backoff{}) {
		backoff = Backoff{Min: busyBackoffMin, Max: busyBackoffMax}
	}
	var first time.Time
	for attempt := 1; ; attempt++ {
		st, err := download(ctx, cfg)
		if budget < 0 || !errors.Is(err, rdt.ErrBusy) || ctx.Err() != nil {
			return st, err
		}
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		delay := backoff.Delay(attempt-1, rand.Float64())
		if now.Add(delay).Sub(first) > budget {
			return st, &BusyError{Attempts: attempt, Waited: now.Sub(first), Err: err}
		}
		c.logger().Info("rdt server busy, retrying", zap.Int("attempt", attempt), zap.Duration("delay", delay), zap.Error(err))
		if c.OnBusy != nil {
			c.OnBusy(attempt, err, delay)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return st, fmt.Errorf("client: waiting to ask a busy server again: %w", errors.Join(ctx.Err(), err))
		case <-t.C:
		}
	}
}
