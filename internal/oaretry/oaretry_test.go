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
