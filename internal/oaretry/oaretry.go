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
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"
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

// Policy is how a client of an OpenAI-compatible API retries.
type Policy struct {
	// Timeout bounds one attempt. Default 60s.
	Timeout time.Duration
	// MaxRetries bounds the retries after the first attempt. Default 4.
	MaxRetries int
	// Backoff is the schedule. Default 500ms doubling to 20s.
	Backoff Backoff
	// Sleep waits between attempts. Default Sleep.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives a warning per retry. Default: discard.
	Logger *zap.Logger
}

// WithDefaults returns p with its zero fields set to the defaults.
func (p Policy) WithDefaults() Policy {
	if p.Timeout <= 0 {
		p.Timeout = 60 * time.Second
	}
	if p.MaxRetries <= 0 {
		p.MaxRetries = 4
	}
	if p.Backoff.Base <= 0 {
		p.Backoff = Backoff{Base: 500 * time.Millisecond, Max: 20 * time.Second}
	}
	if p.Sleep == nil {
		p.Sleep = Sleep
	}
	if p.Logger == nil {
		p.Logger = zap.NewNop()
	}
	return p
}

// Do runs attempt until it succeeds, fails in a way not worth retrying,
// or the retries run out. Each attempt gets its own context, bounded by
// the timeout and recording Retry-After (through Transport); after a
// success that context stays alive (a stream may still be read from it)
// until the caller calls the returned release function.
func (p Policy) Do(ctx context.Context, attempt func(ctx context.Context) error) (release func(), err error) {
	for n := 1; ; n++ {
		rctx, retryAfter := WithRetryAfter(ctx)
		rctx, cancel := context.WithTimeout(rctx, p.Timeout)
		err := attempt(rctx)
		if err == nil {
			return cancel, nil
		}
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !Retryable(err) || n > p.MaxRetries {
			return nil, err
		}
		d := p.Backoff.Delay(n, *retryAfter)
		p.Logger.Warn("request failed; retrying", zap.Int("attempt", n), zap.Duration("wait", d), zap.Error(err))
		if err := p.Sleep(ctx, d); err != nil {
			return nil, err
		}
	}
}

// NewClient returns a go-openai client for baseURL whose requests go
// through Transport (Retry-After recorded) over base (nil: the default
// transport).
func NewClient(baseURL, apiKey string, base http.RoundTripper) *openai.Client {
	oc := openai.DefaultConfig(apiKey)
	oc.BaseURL = strings.TrimRight(baseURL, "/")
	oc.HTTPClient = &http.Client{Transport: Transport{Base: base}}
	return openai.NewClientWithConfig(oc)
}
