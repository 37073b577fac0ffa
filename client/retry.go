package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
)

// Defaults of Backoff.
const (
	defaultBackoffMin = 200 * time.Millisecond
	defaultBackoffMax = 5 * time.Second
)

// Backoff is an exponential backoff schedule with jitter.
type Backoff struct {
	// Min is the delay before the first retry. Default: 200ms.
	Min time.Duration
	// Max caps the delay. Default: 5s.
	Max time.Duration
}

func (b Backoff) populate() Backoff {
	if b.Min <= 0 {
		b.Min = defaultBackoffMin
	}
	if b.Max <= 0 {
		b.Max = defaultBackoffMax
	}
	if b.Max < b.Min {
		b.Max = b.Min
	}
	return b
}

// Delay returns the wait before retry n (0 for the first retry): Min
// doubled n times and capped at Max, then scaled by a jitter factor in
// [0.5, 1] taken from jitter, a number in [0, 1). Zero fields take their
// defaults.
func (b Backoff) Delay(n int, jitter float64) time.Duration {
	b = b.populate()
	d := b.Min
	for i := 0; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	jitter = min(max(jitter, 0), 1)
	return d/2 + time.Duration(jitter*float64(d/2))
}

// DialRetry calls Dial until it succeeds, up to attempts times (attempts
// <= 0: until ctx ends), waiting opts.Backoff between attempts. Each attempt
// resumes opts.SessionID. It gives up at once when the server refuses the
// token (code "unauthorized"), does not know opts.SessionID
// (ErrUnknownSession), answers like an HTTP server (ErrHTTPServer) or
// ctx ends, and returns the last error.
func DialRetry(ctx context.Context, addr string, opts Options, attempts int) (*Conn, error) {
	opts = opts.populate()
	var last error
	for i := 0; attempts <= 0 || i < attempts; i++ {
		c, err := Dial(ctx, addr, opts)
		if err == nil {
			return c, nil
		}
		last = err
		if permanent(ctx, err) {
			return nil, err
		}
		if attempts > 0 && i == attempts-1 {
			break
		}
		delay := opts.Backoff.Delay(i, rand.Float64())
		opts.Logger.Info("dial failed, retrying", zap.Int("attempt", i+1), zap.Duration("delay", delay), zap.Error(err))
		if opts.OnRetry != nil {
			opts.OnRetry(i+1, err, delay)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("client: dial %s: %w", addr, errors.Join(ctx.Err(), last))
		case <-t.C:
		}
	}
	return nil, fmt.Errorf("client: dial %s: giving up after %d attempts: %w", addr, attempts, last)
}

// permanent reports whether a failed Dial is not worth retrying with the
// same options: ctx ended, the token was refused, the session to resume
// does not exist (a server restart does not bring it back), the peer
// answered like an HTTP server (the wrong port), or the server's
// certificate is not trusted.
func permanent(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return true
	}
	var certErr *tls.CertificateVerificationError
	return errors.Is(err, &ServerError{Code: api.CodeUnauthorized}) || errors.Is(err, ErrUnknownSession) ||
		errors.Is(err, ErrHTTPServer) ||
		errors.As(err, &certErr)
}
