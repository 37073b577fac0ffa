package tools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrorClass classifies a failed call (seed 001 §3.4): it decides
// whether the Registry retries the call, and the audit log records it.
type ErrorClass string

// Error classes. Connection and timeout failures are transient and
// may be retried (RetryPolicy); the others are not.
const (
	ClassNone       ErrorClass = ""
	ClassConnection ErrorClass = "connection"
	ClassTimeout    ErrorClass = "timeout"
	ClassParameter  ErrorClass = "parameter"
	ClassValidation ErrorClass = "validation"
	ClassPermission ErrorClass = "permission"
	ClassExecution  ErrorClass = "execution"
)

// ErrNotSent marks a failure that provably happened before the request
// left (the connection was never made, the message never written): a
// tool wraps it (fmt.Errorf("…: %w", tools.ErrNotSent), or errors.Join)
// when it knows, and the Registry may then retry even a tool that is
// not read-only (RetryPolicy). Classify gives it ClassConnection unless
// the tool gave another class.
var ErrNotSent = errors.New("tools: request not sent")

// NotSent reports whether err provably ended the call before its
// request left: a dial error (*net.OpError with Op "dial"), a refused
// connection (ECONNREFUSED), or an error marked with ErrNotSent. A
// reset, a broken pipe, an unexpected EOF or a timeout after the
// connection was made may have come after the request acted.
func NotSent(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrNotSent) || errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	oe, ok := errors.AsType[*net.OpError](err)
	return ok && oe.Op == "dial"
}

// Classed is an error that knows its class: Classify returns it, for
// the outermost such error in the chain, before looking at anything
// else. A tool's error type may implement it (a command's non-zero exit
// is an execution error whatever its stderr says); WithClass marks any
// error.
type Classed interface {
	error
	ErrorClass() ErrorClass
}

// classedError is an error a tool marked with its class (WithClass).
type classedError struct {
	class ErrorClass
	err   error
}

func (e *classedError) Error() string          { return e.err.Error() }
func (e *classedError) Unwrap() error          { return e.err }
func (e *classedError) ErrorClass() ErrorClass { return e.class }

// WithClass marks err as being of class c, which Classify then returns
// whatever err wraps: a tool that knows its failure is a bad parameter
// (or a dropped connection) says so. The result unwraps to err, and
// WithClass(c, nil) is nil.
func WithClass(c ErrorClass, err error) error {
	if err == nil {
		return nil
	}
	return &classedError{class: c, err: err}
}

// messagePatterns classify an error by its text when its type says
// nothing, in order (seed 001 §3.4.2's classifier).
var messagePatterns = []struct {
	class    ErrorClass
	patterns []string
}{
	{ClassConnection, []string{"connection refused", "connection reset", "broken pipe", "cannot connect", "websocket", "no route to host", "network is unreachable"}},
	{ClassTimeout, []string{"timeout", "timed out", "deadline exceeded"}},
	{ClassPermission, []string{"permission denied", "operation not permitted", "unauthorized", "forbidden", "eperm", "eacces"}},
	{ClassParameter, []string{"invalid parameter", "missing parameter", "invalid argument", "file not found", "no such file", "enoent"}},
}

// Classify returns err's class (ClassNone for nil): the class a tool
// gave it (Classed, WithClass) wins; then context.DeadlineExceeded and network
// timeouts are ClassTimeout; refused, reset or broken connections
// (*net.OpError, ECONNREFUSED, ECONNRESET, EPIPE, an unexpected EOF on
// a connection) ClassConnection; fs.ErrPermission, EACCES and EPERM
// ClassPermission; fs.ErrNotExist ClassParameter; otherwise the error's
// text decides ("connection refused", "timed out", "permission denied",
// "no such file", "invalid parameter"…), and what matches nothing is
// ClassExecution.
func Classify(err error) ErrorClass {
	if err == nil {
		return ClassNone
	}
	if ce, ok := errors.AsType[Classed](err); ok && ce.ErrorClass() != ClassNone {
		return ce.ErrorClass()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ClassTimeout
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return ClassTimeout
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
		return ClassPermission
	}
	if isConnection(err) || errors.Is(err, ErrNotSent) {
		return ClassConnection
	}
	if errors.Is(err, fs.ErrNotExist) {
		return ClassParameter
	}
	msg := strings.ToLower(err.Error())
	for _, p := range messagePatterns {
		for _, s := range p.patterns {
			if strings.Contains(msg, s) {
				return p.class
			}
		}
	}
	return ClassExecution
}

// isConnection reports whether err is a failed or broken connection.
func isConnection(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	if _, ok := errors.AsType[*net.OpError](err); ok {
		return true
	}
	// An HTTP request whose connection ended mid-response.
	if _, ok := errors.AsType[*url.Error](err); ok && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)) {
		return true
	}
	return false
}

// RetryPolicy is how the Registry retries a call that failed with a
// transient error (Classify: connection or timeout): up to MaxRetries
// more attempts, the n-th after min(BaseDelay·2ⁿ⁻¹, MaxDelay) ±25 %
// jitter, never past the call's context. A read-only tool (Spec.Risk
// RiskReadOnly) is retried after any connection failure or timeout;
// any other tool — sensitive or dangerous, approved by the user or not
// — only when its request provably never left (NotSent: a dial error,
// a refused connection, an error marked ErrNotSent): a command that
// timed out, or a request whose connection ended mid-response, may
// have done its work. Zero fields take the defaults.
type RetryPolicy struct {
	MaxRetries int           // default 2; negative: never retry
	BaseDelay  time.Duration // default 500ms
	MaxDelay   time.Duration // default 5s
}

// Retry defaults (RetryPolicy).
const (
	DefaultMaxRetries = 2
	DefaultBaseDelay  = 500 * time.Millisecond
	DefaultMaxDelay   = 5 * time.Second
)

// withDefaults returns p with its zero fields set to the defaults.
func (p RetryPolicy) withDefaults() RetryPolicy {
	switch {
	case p.MaxRetries == 0:
		p.MaxRetries = DefaultMaxRetries
	case p.MaxRetries < 0:
		p.MaxRetries = 0
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	p.MaxDelay = max(p.MaxDelay, p.BaseDelay)
	return p
}

// retryable reports whether err, a failure of class c of a tool of
// risk risk, is worth another attempt (RetryPolicy): a transient class,
// and a read-only tool or a request that never left.
func retryable(err error, c ErrorClass, risk Risk) bool {
	if c != ClassConnection && c != ClassTimeout {
		return false
	}
	return risk == RiskReadOnly || NotSent(err)
}

// delay is the wait before retry n (1 for the first), with jitter j in
// [0, 1) spreading it over ±25 %.
func (p RetryPolicy) delay(n int, j float64) time.Duration {
	d := p.MaxDelay
	if n-1 < 32 {
		d = min(p.BaseDelay<<(n-1), p.MaxDelay)
		if d <= 0 { // overflow
			d = p.MaxDelay
		}
	}
	j = min(max(j, 0), 1)
	return time.Duration(float64(d) * (0.75 + 0.5*j))
}
