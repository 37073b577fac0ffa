package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	opErr := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		err  error
		want ErrorClass
	}{
		{nil, ClassNone},
		{WithClass(ClassParameter, errors.New("connection refused")), ClassParameter},
		{fmt.Errorf("outer: %w", WithClass(ClassConnection, errors.New("x"))), ClassConnection},
		{context.DeadlineExceeded, ClassTimeout},
		{fmt.Errorf("timed out after 1s: %w", context.DeadlineExceeded), ClassTimeout},
		{&net.DNSError{Err: "i/o timeout", IsTimeout: true}, ClassTimeout},
		{opErr, ClassConnection},
		{fmt.Errorf("fetch: %w", syscall.ECONNRESET), ClassConnection},
		{syscall.EPIPE, ClassConnection},
		{&url.Error{Op: "Get", URL: "http://x", Err: io.ErrUnexpectedEOF}, ClassConnection},
		{io.ErrUnexpectedEOF, ClassExecution},
		{&fs.PathError{Op: "open", Path: "/root/x", Err: syscall.EACCES}, ClassPermission},
		{fs.ErrPermission, ClassPermission},
		{syscall.EPERM, ClassPermission},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}, ClassParameter},
		{os.ErrNotExist, ClassParameter},
		{errors.New("ssh: Connection Refused by host"), ClassConnection},
		{errors.New("request timed out"), ClassTimeout},
		{errors.New("rpc: deadline exceeded"), ClassTimeout},
		{errors.New("Permission denied (publickey)"), ClassPermission},
		{errors.New("invalid parameter: port"), ClassParameter},
		{errors.New("cat: x: No such file or directory"), ClassParameter},
		{errors.New("exit status 1"), ClassExecution},
	} {
		if got := Classify(tc.err); got != tc.want {
			t.Errorf("Classify(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestWithClass(t *testing.T) {
	if WithClass(ClassConnection, nil) != nil {
		t.Fatal("WithClass(nil) is not nil")
	}
	base := &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}
	err := WithClass(ClassParameter, base)
	if err.Error() != base.Error() || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("%v does not unwrap", err)
	}
	if _, ok := errors.AsType[*fs.PathError](err); !ok {
		t.Fatal("errors.As through WithClass")
	}
}

func TestRetryPolicyDefaultsAndDelay(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	if p.MaxRetries != 2 || p.BaseDelay != 500*time.Millisecond || p.MaxDelay != 5*time.Second {
		t.Fatalf("defaults %+v", p)
	}
	if n := (RetryPolicy{MaxRetries: -1}).withDefaults().MaxRetries; n != 0 {
		t.Fatalf("negative MaxRetries: %d", n)
	}
	for _, tc := range []struct {
		n    int
		j    float64
		want time.Duration
	}{
		{1, 0, 375 * time.Millisecond},
		{1, 0.5, 500 * time.Millisecond},
		{1, 1, 625 * time.Millisecond},
		{2, 0.5, time.Second},
		{4, 0.5, 4 * time.Second},
		{5, 0.5, 5 * time.Second},
		{5, 1, 6250 * time.Millisecond},
		{40, 0.5, 5 * time.Second},
		{1000, 0, 3750 * time.Millisecond},
		{1, -3, 375 * time.Millisecond},
	} {
		if got := p.delay(tc.n, tc.j); got != tc.want {
			t.Errorf("delay(%d, %v) = %v, want %v", tc.n, tc.j, got, tc.want)
		}
	}
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	midResponse := &url.Error{Op: "Post", URL: "http://x", Err: io.ErrUnexpectedEOF}
	marked := fmt.Errorf("queue full, nothing written: %w", ErrNotSent)
	for _, tc := range []struct {
		err  error
		risk Risk
		want bool
	}{
		{dial, RiskDangerous, true},
		{fmt.Errorf("post: %w", dial), RiskSensitive, true},
		{dialTimeout, RiskDangerous, true},
		{fmt.Errorf("connect: %w", syscall.ECONNREFUSED), RiskSensitive, true},
		{marked, RiskDangerous, true},
		{reset, RiskDangerous, false},
		{reset, RiskReadOnly, true},
		{midResponse, RiskSensitive, false},
		{midResponse, RiskReadOnly, true},
		{syscall.EPIPE, RiskDangerous, false},
		{errors.New("ssh: connection refused"), RiskDangerous, false}, // only its text says so
		{context.DeadlineExceeded, RiskReadOnly, true},
		{context.DeadlineExceeded, RiskSensitive, false},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, RiskReadOnly, false},
		{WithClass(ClassParameter, errors.New("bad")), RiskReadOnly, false},
		{WithClass(ClassParameter, marked), RiskDangerous, false},
		{WithClass(ClassValidation, errors.New("bad")), RiskReadOnly, false},
		{errors.New("exit status 2"), RiskReadOnly, false},
	} {
		if got := retryable(tc.err, Classify(tc.err), tc.risk); got != tc.want {
			t.Errorf("retryable(%v, %q, %q) = %v", tc.err, Classify(tc.err), tc.risk, got)
		}
	}
}

// TestNotSent: only a dial error, a refused connection or an error
// marked ErrNotSent provably never sent its request; ErrNotSent alone
// classifies as a connection failure.
func TestNotSent(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route")}, true},
		{syscall.ECONNREFUSED, true},
		{errors.Join(errors.New("x"), ErrNotSent), true},
		{&net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}, false},
		{&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, false},
		{io.ErrUnexpectedEOF, false},
		{context.DeadlineExceeded, false},
	} {
		if got := NotSent(tc.err); got != tc.want {
			t.Errorf("NotSent(%v) = %v", tc.err, got)
		}
	}
	if c := Classify(fmt.Errorf("x: %w", ErrNotSent)); c != ClassConnection {
		t.Errorf("ErrNotSent classified %q", c)
	}
}
