package tools

import (
	"encoding/json"
	"time"
)

// Who or what decided a call (CallRecord.DecidedBy). A Policy's verdict
// is DecidedByDefault, DecidedByRule or DecidedByRole; a call put at Ask
// is decided by the answer (ByUser, BySessionGrant, ByTimeout,
// ByDisconnect, ByCancel) or, with nobody to ask, DecidedByNoClient; the
// rate limiter and the loop guard decide the calls they refuse.
const (
	DecidedByDefault   = "default"
	DecidedByRule      = "rule"
	DecidedByRole      = "role"
	DecidedByNoClient  = "no_client"
	DecidedByRateLimit = "rate_limit"
	DecidedByLoopGuard = "loop_guard"
)

// CallRecord is what the Registry reports to its Recorder about every
// call, decided or not: the audit log's record (package tools/audit).
type CallRecord struct {
	// Time is when the call started.
	Time time.Time
	// User, Role, Session and Client are the Call's User, Role,
	// SessionID and ClientType; ToolCallID the model's id of the call.
	User, Role, Session, Client, ToolCallID string
	// Tool is the tool name as the model called it (possibly unknown).
	Tool string
	// Args are the arguments, secrets redacted (Redact); nil when they
	// are not valid JSON (ArgsInvalid).
	Args        json.RawMessage
	ArgsInvalid bool
	// Decision is the Policy's decision ("allow", "ask", "deny"), or ""
	// when the call never reached the Policy (unknown tool, invalid
	// arguments).
	Decision string
	// DecidedBy says who or what made the final decision (DecidedBy*,
	// By*); Rule names the rule or role (Verdict.Rule).
	DecidedBy string
	Rule      string
	// Status is the call's Observer status: StatusOK, StatusError,
	// StatusDenied or StatusTimeout.
	Status string
	// ErrorClass classifies a failure (ErrorClass); Error is its text,
	// cut to a few hundred bytes and redacted (RedactString).
	ErrorClass ErrorClass
	Error      string
	// Attempts is how many times the tool ran (retries included); 0 when
	// it never ran.
	Attempts int
	// Duration is the whole call, asking and retries included.
	Duration time.Duration
	// OutputBytes and OutputSHA256 (hex) describe the full result
	// output (Result.Output), before any cut for the model.
	OutputBytes  int
	OutputSHA256 string
}

// Recorder receives a CallRecord for every call the Registry handles
// (the audit log). Record is called once per call, after it ended, and
// must be safe for concurrent use. An error means the record was not
// kept: the Registry logs it and refuses further calls until a record
// succeeds again (fail closed: no unaudited tool calls).
type Recorder interface {
	Record(r CallRecord) error
}

// RateLimiter counts calls per user and tool (package tools/ratelimit).
// The Registry asks it once per call, after the Policy allowed the
// call or put it at Ask and before the user is asked: a refused call
// is not asked about and does not run. Allow must be safe for
// concurrent use; reason, when refused, tells the model (and the user)
// which limit was hit and when to try again.
type RateLimiter interface {
	Allow(user, tool string) (ok bool, reason string)
}
