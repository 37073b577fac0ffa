package tools

import "time"

// ErrorClass classifies a failed call (seed 001 §3.4): it decides
// whether the Registry retries the call, and the audit log records it.
type ErrorClass string

// Error classes. Connection and timeout failures are transient and
// retried (RetryPolicy); the others are not.
const (
	ClassNone       ErrorClass = ""
	ClassConnection ErrorClass = "connection"
	ClassTimeout    ErrorClass = "timeout"
	ClassParameter  ErrorClass = "parameter"
	ClassValidation ErrorClass = "validation"
	ClassPermission ErrorClass = "permission"
	ClassExecution  ErrorClass = "execution"
)

// RetryPolicy is how the Registry retries a call that failed with a
// transient error (Classify: connection or timeout): up to MaxRetries
// more attempts, the n-th after min(BaseDelay·2ⁿ, MaxDelay) ±25 %
// jitter, never past the call's context. A timeout is retried only for
// a read-only tool (Spec.Risk RiskReadOnly): a command that timed out
// may have done its work. Zero fields take the defaults.
type RetryPolicy struct {
	MaxRetries int           // default 2; negative: never retry
	BaseDelay  time.Duration // default 500ms
	MaxDelay   time.Duration // default 5s
}
