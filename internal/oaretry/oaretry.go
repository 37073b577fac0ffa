// Package oaretry is the retry policy shared by the clients of
// OpenAI-compatible APIs (chat planner, embeddings): which failures are
// worth retrying, an exponential backoff with jitter, and the server's
// Retry-After header honoured.
package oaretry

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Backoff is the retry schedule: exponential from Base, capped at Max,
// with full jitter.
type Backoff struct {
	Base, Max time.Duration
}

// Delay returns the wait before retry n (1-based), or retryAfter (capped
// at Max) when the server named one.
func (b Backoff) Delay(n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, b.Max)
	}
	d := b.Base << min(n-1, 16)
	if d <= 0 || d > b.Max {
		d = b.Max
	}
	return d/2 + rand.N(d/2+1)
}

// Retryable reports whether a request error is worth retrying: 429, 5xx,
// and connection failures. Other 4xx never are, nor cancellation.
func Retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ae *openai.APIError
	if errors.As(err, &ae) {
		return ae.HTTPStatusCode == http.StatusTooManyRequests || ae.HTTPStatusCode >= 500
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		return re.HTTPStatusCode == http.StatusTooManyRequests || re.HTTPStatusCode >= 500 || re.HTTPStatusCode == 0
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

// retryAfterKey carries a *time.Duration the transport fills from a
// response's Retry-After header.
type retryAfterKey struct{}

// WithRetryAfter returns a context whose requests through Transport
// record the server's Retry-After in the returned duration.
func WithRetryAfter(ctx context.Context) (context.Context, *time.Duration) {
	d := new(time.Duration)
	return context.WithValue(ctx, retryAfterKey{}, d), d
}

// Transport records Retry-After of error responses (see WithRetryAfter).
type Transport struct {
	// Base makes the requests. Nil means http.DefaultTransport.
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil && resp.StatusCode >= 400 {
		if p, ok := r.Context().Value(retryAfterKey{}).(*time.Duration); ok {
			*p = ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
	}
	return resp, err
}

// ParseRetryAfter reads delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Sleep waits d or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
