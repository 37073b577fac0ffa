package oaretry

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if ParseRetryAfter("3", now) != 3*time.Second || ParseRetryAfter("", now) != 0 || ParseRetryAfter("x", now) != 0 {
		t.Fatal("delay-seconds")
	}
	if d := ParseRetryAfter(now.Add(5*time.Second).Format(http.TimeFormat), now); d != 5*time.Second {
		t.Fatalf("http date: %v", d)
	}
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&openai.APIError{HTTPStatusCode: 429}, true},
		{&openai.APIError{HTTPStatusCode: 503}, true},
		{&openai.APIError{HTTPStatusCode: 400}, false},
		{&openai.RequestError{HTTPStatusCode: 401}, false},
		{&openai.RequestError{HTTPStatusCode: 0}, true},
		{context.Canceled, false},
		{errors.New("other"), false},
	} {
		if got := Retryable(tc.err); got != tc.want {
			t.Errorf("Retryable(%v) = %v", tc.err, got)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Base: 100 * time.Millisecond, Max: time.Second}
	for n := 1; n < 20; n++ {
		if d := b.Delay(n, 0); d <= 0 || d > time.Second {
			t.Fatalf("Delay(%d) = %v", n, d)
		}
	}
	if d := b.Delay(1, 5*time.Second); d != time.Second {
		t.Fatalf("Retry-After not capped: %v", d)
	}
}

func TestPolicyDo(t *testing.T) {
	var slept []time.Duration
	p := Policy{MaxRetries: 2, Backoff: Backoff{Base: time.Millisecond, Max: time.Millisecond},
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}.WithDefaults()
	calls := 0
	release, err := p.Do(context.Background(), func(ctx context.Context) error {
		calls++
		if _, ok := ctx.Deadline(); !ok {
			t.Fatal("attempt without a timeout")
		}
		if calls < 3 {
			return &openai.APIError{HTTPStatusCode: 503}
		}
		return nil
	})
	if err != nil || calls != 3 || len(slept) != 2 {
		t.Fatalf("err %v, calls %d, slept %v", err, calls, slept)
	}
	release()
	calls = 0
	if _, err := p.Do(context.Background(), func(context.Context) error { calls++; return &openai.APIError{HTTPStatusCode: 400} }); err == nil || calls != 1 {
		t.Fatalf("client error retried: %d %v", calls, err)
	}
	calls = 0
	if _, err := p.Do(context.Background(), func(context.Context) error { calls++; return &openai.APIError{HTTPStatusCode: 429} }); err == nil || calls != 3 {
		t.Fatalf("retries not bounded: %d %v", calls, err)
	}
}
