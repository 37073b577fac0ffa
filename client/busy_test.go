package client

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/rdt"
)

// busyThen is a download that the server refuses as busy n times, then
// ends with last; calls counts the attempts.
func busyThen(n int, last error, calls *int) func(context.Context, rdt.ClientConfig) (rdt.Stats, error) {
	return func(context.Context, rdt.ClientConfig) (rdt.Stats, error) {
		*calls++
		if *calls <= n {
			return rdt.Stats{}, &rdt.RemoteError{Code: rdt.CodeBusy, Reason: "too many transfers from this address; try again later"}
		}
		return rdt.Stats{Size: 42}, last
	}
}

type busyCall struct {
	attempt int
	delay   time.Duration
}

// TestBusyRetried: busy refusals are retried after a doubling backoff
// with jitter, each announced through OnBusy, until the download runs.
func TestBusyRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls int
		var seen []busyCall
		d := &Downloader{download: busyThen(3, nil, &calls), OnBusy: func(attempt int, err error, delay time.Duration) {
			if !errors.Is(err, rdt.ErrBusy) {
				t.Errorf("OnBusy with %v", err)
			}
			seen = append(seen, busyCall{attempt, delay})
		}}
		start := time.Now()
		st, err := d.downloadRDT(t.Context(), rdt.ClientConfig{})
		if err != nil || st.Size != 42 || calls != 4 || len(seen) != 3 {
			t.Fatalf("err %v, size %d, %d calls, OnBusy %v", err, st.Size, calls, seen)
		}
		var total time.Duration
		for i, c := range seen {
			full := busyBackoffMin << i
			if c.attempt != i+1 || c.delay < full/2 || c.delay > full {
				t.Errorf("retry %d: attempt %d after %v, want within [%v, %v]", i+1, c.attempt, c.delay, full/2, full)
			}
			total += c.delay
		}
		if waited := time.Since(start); waited != total {
			t.Errorf("waited %v, the delays add up to %v", waited, total)
		}
	})
}

// TestBusyGivesUp: a server busy for good is asked again for at most
// BusyRetry (30 s by default) after the first refusal; then Fetch fails
// with a BusyError that still matches rdt.ErrBusy.
func TestBusyGivesUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	synctest.Test(t, func(t *testing.T) {
		var calls int
		d := &Downloader{download: busyThen(1<<30, nil, &calls)}
		start := time.Now()
		_, err := d.Fetch(t.Context(), DownloadRequest{Token: "t", Path: path, RDTAddr: "127.0.0.1:1"}, nil, nil)
		var be *BusyError
		if !errors.As(err, &be) || !errors.Is(err, rdt.ErrBusy) {
			t.Fatalf("err %v", err)
		}
		waited := time.Since(start)
		if waited > defaultBusyRetry || be.Waited != waited || be.Attempts != calls || calls < 8 {
			t.Fatalf("gave up after %v (error says %v), %d calls (error says %d)", waited, be.Waited, calls, be.Attempts)
		}
	})
}

// TestBusyOnlyBusyRetried: other refusals and failures end the download
// at once, and a negative BusyRetry turns the retry off.
func TestBusyOnlyBusyRetried(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     Downloader
		busy  int
		last  error
		calls int
	}{
		{"unknown token", Downloader{}, 0, &rdt.RemoteError{Code: rdt.CodeUnknownToken, Reason: "unknown download token"}, 1},
		{"shutting down", Downloader{}, 0, &rdt.RemoteError{Code: rdt.CodeShuttingDown, Reason: "server is shutting down"}, 1},
		{"no response", Downloader{}, 0, rdt.ErrNoResponse, 1},
		{"retry off", Downloader{BusyRetry: -1}, 5, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var calls int
				d := tc.d
				d.download = busyThen(tc.busy, tc.last, &calls)
				d.OnBusy = func(int, error, time.Duration) { t.Error("OnBusy called") }
				_, err := d.downloadRDT(t.Context(), rdt.ClientConfig{})
				if calls != tc.calls {
					t.Fatalf("%d calls, err %v", calls, err)
				}
				if tc.last != nil && !errors.Is(err, tc.last) {
					t.Fatalf("err %v, want %v", err, tc.last)
				}
			})
		})
	}
}

// TestBusyWaitCancelled: cancelling ctx during a wait ends Fetch at once
// with context.Canceled, and the download is not asked for again.
func TestBusyWaitCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		var calls int
		d := &Downloader{download: busyThen(1<<30, nil, &calls), BusyBackoff: Backoff{Min: time.Minute, Max: time.Minute},
			BusyRetry: time.Hour, OnBusy: func(int, error, time.Duration) { cancel() }}
		start := time.Now()
		_, err := d.downloadRDT(ctx, rdt.ClientConfig{})
		if !errors.Is(err, context.Canceled) || !errors.Is(err, rdt.ErrBusy) || calls != 1 || time.Since(start) != 0 {
			t.Fatalf("err %v after %d calls, %v", err, calls, time.Since(start))
		}
	})
}
