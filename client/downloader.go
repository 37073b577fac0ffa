package client

import (
	"context"
	"time"

	"go.uber.org/zap"

	"opsassist/rdt"
)

// Downloader fetches offered files (Fetch): over RDT, falling back to an
// NPLT connection when UDP does not get through. The zero value is
// usable; each field's comment gives its default.
type Downloader struct {
	// Logger receives the download's logs. Default: zap.NewNop().
	Logger *zap.Logger
	// FirstPacketTimeout is how long Fetch waits for the first RDT packet
	// before falling back to NPLT. Default: rdt's, 3s.
	FirstPacketTimeout time.Duration
	// BusyRetry bounds how long Fetch keeps asking again for a download
	// the RDT server refuses as busy (too many transfers, from this
	// address or in all), counted from the first refusal; it then fails
	// with a *BusyError. Other refusals are not retried. Default 30s;
	// negative: no retry.
	BusyRetry time.Duration
	// BusyBackoff is the wait before each busy retry, with jitter.
	// Default: Backoff{Min: 250ms, Max: 4s}.
	BusyBackoff Backoff
	// OnBusy, if set, is called before each wait for a busy retry, from
	// Fetch's goroutine: the attempt refused (1 for the first), the
	// refusal, and the wait before the next attempt.
	OnBusy func(attempt int, err error, delay time.Duration)

	// download is rdt.Download; tests replace it.
	download func(context.Context, rdt.ClientConfig) (rdt.Stats, error)
}

func (c *Downloader) logger() *zap.Logger {
	if c.Logger == nil {
		return zap.NewNop()
	}
	return c.Logger
}
