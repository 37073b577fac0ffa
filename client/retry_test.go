package client

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestBackoffDelay(t *testing.T) {
	b := Backoff{}
	tests := []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{0, 0, 100 * time.Millisecond},
		{0, 0.999999, 200 * time.Millisecond},
		{1, 0, 200 * time.Millisecond},
		{2, 0.5, 600 * time.Millisecond},
		{4, 1, 3200 * time.Millisecond},
		{5, 1, 5 * time.Second},
		{5, 0, 2500 * time.Millisecond},
		{1000, 1, 5 * time.Second},
		{1, -3, 200 * time.Millisecond}, // jitter clamped
	}
	for _, tt := range tests {
		if got := b.Delay(tt.n, tt.jitter); got.Round(time.Millisecond) != tt.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", tt.n, tt.jitter, got, tt.want)
		}
	}
	custom := Backoff{Min: time.Second, Max: 1500 * time.Millisecond}
	if got := custom.Delay(3, 1); got != 1500*time.Millisecond {
		t.Errorf("custom Delay = %v", got)
	}
}

// flakyDial fails the first n dials, then dials for real.
func flakyDial(n int32, calls *atomic.Int32) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if calls.Add(1) <= n {
			return nil, errors.New("connection refused (simulated)")
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

func TestDialRetryResumesSession(t *testing.T) {
	hellos := make(chan nplt.HelloPayload, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		hellos <- fc.Handshake()
		fc.ReadUntilEOF()
	})
	var calls atomic.Int32
	var retries []int
	opts := Options{
		SessionID: "sess-resume",
		Backoff:   Backoff{Min: time.Microsecond, Max: time.Microsecond},
		Dial:      flakyDial(2, &calls),
		OnRetry:   func(attempt int, err error, delay time.Duration) { retries = append(retries, attempt) },
	}
	ctx, cancel := testContext(t)
	defer cancel()
	c, err := DialRetry(ctx, s.Addr, opts, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if calls.Load() != 3 || len(retries) != 2 {
		t.Errorf("dials = %d, retries = %v", calls.Load(), retries)
	}
	if h := <-hellos; h.SessionID != "sess-resume" {
		t.Errorf("HELLO session_id = %q", h.SessionID)
	}
	if c.SessionID() != "sess-resume" {
		t.Errorf("SessionID = %q", c.SessionID())
	}
}

func TestDialRetryGivesUp(t *testing.T) {
	var calls atomic.Int32
	opts := Options{Backoff: Backoff{Min: time.Microsecond, Max: time.Microsecond}, Dial: flakyDial(100, &calls)}
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := DialRetry(ctx, "127.0.0.1:1", opts, 3)
	if err == nil || calls.Load() != 3 {
		t.Fatalf("err = %v after %d dials, want failure after 3", err, calls.Load())
	}
}

func TestDialRetryUnauthorizedIsPermanent(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Expect(nplt.Hello)
		fc.Error(api.CodeUnauthorized, "bad token")
	})
	var calls atomic.Int32
	opts := Options{Backoff: Backoff{Min: time.Microsecond, Max: time.Microsecond}, Dial: flakyDial(0, &calls)}
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := DialRetry(ctx, s.Addr, opts, 5)
	if !errors.Is(err, &ServerError{Code: api.CodeUnauthorized}) || calls.Load() != 1 {
		t.Fatalf("err = %v after %d dials, want unauthorized after 1", err, calls.Load())
	}
}

func TestDialRetryStopsWhenCancelled(t *testing.T) {
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(t.Context())
	opts := Options{
		Backoff: Backoff{Min: time.Hour, Max: time.Hour},
		Dial:    flakyDial(100, &calls),
		OnRetry: func(int, error, time.Duration) { cancel() },
	}
	_, err := DialRetry(ctx, "127.0.0.1:1", opts, 0)
	if !errors.Is(err, context.Canceled) || calls.Load() != 1 {
		t.Fatalf("err = %v after %d dials", err, calls.Load())
	}
}

func TestDialRetryUnknownSessionIsPermanent(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.ResumeRefused("sess-new-1111")
		fc.ExpectClose()
	})
	var calls atomic.Int32
	var retries atomic.Int32
	opts := Options{
		SessionID: "sess-gone",
		Backoff:   Backoff{Min: time.Microsecond, Max: time.Microsecond},
		Dial:      flakyDial(0, &calls),
		OnRetry:   func(int, error, time.Duration) { retries.Add(1) },
	}
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := DialRetry(ctx, s.Addr, opts, 5)
	if !errors.Is(err, ErrUnknownSession) || calls.Load() != 1 || retries.Load() != 0 {
		t.Fatalf("err = %v after %d dials and %d retries, want ErrUnknownSession after 1", err, calls.Load(), retries.Load())
	}
}
