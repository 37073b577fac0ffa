package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// flaky fails its first fails attempts with err, then succeeds; it
// records when each attempt started. A nil err hangs until the
// attempt's deadline instead.
type flaky struct {
	name  string
	risk  Risk
	fails int
	err   error

	mu     sync.Mutex
	starts []time.Time
}

func (f *flaky) Spec() Spec {
	return Spec{Name: f.name, Parameters: json.RawMessage(`{"type":"object"}`), Risk: f.risk, Timeout: time.Second}
}

func (f *flaky) Run(ctx context.Context, _ *Call, _ json.RawMessage) (any, error) {
	f.mu.Lock()
	f.starts = append(f.starts, time.Now())
	n := len(f.starts)
	f.mu.Unlock()
	if n > f.fails {
		return "done", nil
	}
	if f.err == nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, f.err
}

func (f *flaky) attempts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.starts)
}

func flakyRegistry(t *testing.T, f *flaky, rec Recorder) *Registry {
	t.Helper()
	r := NewRegistry(Config{Audit: rec})
	if err := r.Register(f); err != nil {
		t.Fatal(err)
	}
	return r
}

var errRefused = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}

// TestRetryConnectionThenSuccess: a connection failure is retried with
// the default policy, after 500ms and 1s ±25 %, and the third attempt's
// success is the call's.
func TestRetryConnectionThenSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{name: "db", risk: RiskDangerous, fails: 2, err: errRefused}
		rec := &fakeRecorder{}
		o := flakyRegistry(t, f, rec).Execute(context.Background(), &Call{}, "db", `{}`)
		if !o.Result.Success || string(o.Result.Output) != `"done"` {
			t.Fatalf("%+v", o.Result)
		}
		if f.attempts() != 3 {
			t.Fatalf("%d attempts", f.attempts())
		}
		for i, bounds := range [][2]time.Duration{{375 * time.Millisecond, 625 * time.Millisecond}, {750 * time.Millisecond, 1250 * time.Millisecond}} {
			if d := f.starts[i+1].Sub(f.starts[i]); d < bounds[0] || d > bounds[1] {
				t.Errorf("delay before attempt %d: %v, want within %v", i+2, d, bounds)
			}
		}
		r := rec.only(t)
		if r.Attempts != 3 || r.Status != StatusOK || r.ErrorClass != ClassNone || r.Error != "" {
			t.Fatalf("record %+v", r)
		}
	})
}

// TestRetryGivesUp: a connection failure that persists is tried
// 1+MaxRetries times; the model is told how often, the record has the
// attempts and the class.
func TestRetryGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{name: "db", risk: RiskDangerous, fails: 100, err: errRefused}
		rec := &fakeRecorder{}
		o := flakyRegistry(t, f, rec).Execute(context.Background(), &Call{}, "db", `{}`)
		if o.Result.Success || !strings.HasSuffix(o.Result.Error, "(tried 3 times)") || f.attempts() != 3 {
			t.Fatalf("%d attempts: %+v", f.attempts(), o.Result)
		}
		if r := rec.only(t); r.Attempts != 3 || r.ErrorClass != ClassConnection || r.Status != StatusError {
			t.Fatalf("record %+v", r)
		}
	})
}

// TestNoRetry: permission, parameter, validation and execution
// failures run once, and so does a timeout of a tool that is not
// read-only; a read-only tool's timeout is retried.
func TestNoRetry(t *testing.T) {
	for _, tc := range []struct {
		name   string
		risk   Risk
		err    error
		tries  int
		class  ErrorClass
		status string
	}{
		{"permission", RiskReadOnly, &fs.PathError{Op: "open", Path: "/etc/shadow", Err: syscall.EACCES}, 1, ClassPermission, StatusError},
		{"parameter", RiskReadOnly, WithClass(ClassParameter, errors.New("no such unit")), 1, ClassParameter, StatusError},
		{"validation", RiskReadOnly, WithClass(ClassValidation, errors.New("bad")), 1, ClassValidation, StatusError},
		{"execution", RiskReadOnly, errors.New("exit status 2"), 1, ClassExecution, StatusError},
		{"timeout sensitive", RiskSensitive, nil, 1, ClassTimeout, StatusTimeout},
		{"timeout dangerous", RiskDangerous, nil, 1, ClassTimeout, StatusTimeout},
		{"timeout read-only", RiskReadOnly, nil, 3, ClassTimeout, StatusTimeout},
		// A connection that broke after the request may have left: only
		// a read-only tool runs again.
		{"reset dangerous", RiskDangerous, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, 1, ClassConnection, StatusError},
		{"mid-response sensitive", RiskSensitive, &url.Error{Op: "Post", URL: "http://x", Err: io.ErrUnexpectedEOF}, 1, ClassConnection, StatusError},
		{"reset read-only", RiskReadOnly, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, 3, ClassConnection, StatusError},
		{"not sent dangerous", RiskDangerous, fmt.Errorf("nothing written: %w", ErrNotSent), 3, ClassConnection, StatusError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &flaky{name: "x", risk: tc.risk, fails: 100, err: tc.err}
				rec := &fakeRecorder{}
				o := flakyRegistry(t, f, rec).Execute(context.Background(), &Call{}, "x", `{}`)
				if o.Result.Success || f.attempts() != tc.tries {
					t.Fatalf("%d attempts, want %d: %+v", f.attempts(), tc.tries, o.Result)
				}
				tried := strings.Contains(o.Result.Error, "(tried")
				if tried != (tc.tries > 1) {
					t.Errorf("error %q", o.Result.Error)
				}
				if r := rec.only(t); r.Attempts != tc.tries || r.ErrorClass != tc.class || r.Status != tc.status {
					t.Errorf("record %+v", r)
				}
			})
		})
	}
}

// TestCancelDuringBackoff: the user's cancel ends the wait before a
// retry at once; the tool is not run again.
func TestCancelDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{name: "db", risk: RiskReadOnly, fails: 100, err: errRefused}
		r := flakyRegistry(t, f, nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Outcome)
		go func() { done <- r.Execute(ctx, &Call{}, "db", `{}`) }()
		synctest.Wait() // the first attempt failed; the registry waits to retry
		if f.attempts() != 1 {
			t.Fatalf("%d attempts before cancel", f.attempts())
		}
		start := time.Now()
		cancel()
		o := <-done
		if waited := time.Since(start); waited != 0 {
			t.Errorf("Execute returned %v after the cancel", waited)
		}
		if o.Result.Success || f.attempts() != 1 || !strings.Contains(o.Result.Error, "connection refused") {
			t.Fatalf("%d attempts: %+v", f.attempts(), o.Result)
		}
	})
}

// TestCancelWhileRunning: a call its caller cancels while it runs is
// recorded "cancelled", with no error class, not as a failure of the
// tool; the tool's own timeout stays "timeout", and a failure followed
// by a cancel during the wait to retry stays that failure.
func TestCancelWhileRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{name: "db", risk: RiskReadOnly, fails: 100} // hangs until its ctx ends
		rec := &fakeRecorder{}
		r := flakyRegistry(t, f, rec)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Outcome)
		go func() { done <- r.Execute(ctx, &Call{Direct: true}, "db", `{}`) }()
		synctest.Wait()
		cancel()
		o := <-done
		if o.Result.Success || f.attempts() != 1 {
			t.Fatalf("%d attempts: %+v", f.attempts(), o.Result)
		}
		if got := rec.recs[0]; got.Status != StatusCancelled || got.ErrorClass != ClassNone {
			t.Fatalf("cancelled run recorded %q %q", got.Status, got.ErrorClass)
		}

		// The tool's own timeout (1s) with the caller still there.
		o = r.Execute(context.Background(), &Call{}, "db", `{}`)
		if got := rec.recs[len(rec.recs)-1]; o.Result.Success || got.Status != StatusTimeout {
			t.Fatalf("timed out run recorded %q", got.Status)
		}

		// A connection failure, then a cancel while waiting to retry.
		g := &flaky{name: "net", risk: RiskReadOnly, fails: 100, err: errRefused}
		rec2 := &fakeRecorder{}
		r2 := flakyRegistry(t, g, rec2)
		ctx, cancel = context.WithCancel(context.Background())
		go func() { done <- r2.Execute(ctx, &Call{}, "net", `{}`) }()
		synctest.Wait()
		cancel()
		<-done
		if got := rec2.recs[0]; got.Status != StatusError || got.ErrorClass != ClassConnection {
			t.Fatalf("failed then cancelled recorded %q %q", got.Status, got.ErrorClass)
		}
	})
}

// TestRetryPolicyConfigured: MaxRetries and the delays come from
// Config.Retry, the jitter from Config.Jitter.
func TestRetryPolicyConfigured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{name: "db", risk: RiskReadOnly, fails: 100, err: errRefused}
		r := NewRegistry(Config{Retry: RetryPolicy{MaxRetries: 4, BaseDelay: time.Second, MaxDelay: 3 * time.Second}, Jitter: func() float64 { return 0.5 }})
		if err := r.Register(f); err != nil {
			t.Fatal(err)
		}
		o := r.Execute(context.Background(), &Call{}, "db", `{}`)
		if !strings.HasSuffix(o.Result.Error, "(tried 5 times)") {
			t.Fatalf("%+v", o.Result)
		}
		var got []string
		for i := 1; i < len(f.starts); i++ {
			got = append(got, f.starts[i].Sub(f.starts[i-1]).String())
		}
		if want := "1s 2s 3s 3s"; strings.Join(got, " ") != want {
			t.Fatalf("delays %v, want %s", got, want)
		}
	})
}
