package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"
)

// Who or what decided a call (CallRecord.DecidedBy). A Policy's verdict
// is DecidedByDefault, DecidedByRule or DecidedByRole; a call put at Ask
// is decided by the answer (ByUser, BySessionGrant, ByTimeout,
// ByDisconnect, ByCancel) or, with nobody to ask, DecidedByNoClient; the
// rate limiter and the loop guard decide the calls they refuse, and
// DecidedByAudit is a call refused while the audit log cannot be
// written (Recorder).
const (
	DecidedByDefault   = "default"
	DecidedByRule      = "rule"
	DecidedByRole      = "role"
	DecidedByNoClient  = "no_client"
	DecidedByRateLimit = "rate_limit"
	DecidedByLoopGuard = "loop_guard"
	// DecidedByStepLimit refuses a call over the agent's calls per step,
	// or made on a turn's last step, which offers no tools.
	DecidedByStepLimit = "step_limit"
	DecidedByAudit     = "audit"
	// DecidedByDirect approves a direct call (Call.Direct) the Policy
	// put at Ask: the explicit request is the confirmation.
	DecidedByDirect = "direct"
)

// CallRecord is what the Registry reports to its Recorder about every
// call, decided or not: the audit log's record (package tools/audit).
type CallRecord struct {
	// Time is when the call started.
	Time time.Time
	// User, Role, Session and Client are the Call's User, Role,
	// SessionID and ClientType; ToolCallID the model's id of the call.
	User, Role, Session, Client, ToolCallID string
	// Direct is the Call's Direct: a person called the tool by name.
	Direct bool
	// Tool is the tool name as the model called it (possibly unknown).
	Tool string
	// Args are the arguments, secrets redacted (Redact), valid UTF-8
	// (invalid bytes replaced by U+FFFD); nil when they are not valid
	// JSON (ArgsInvalid).
	Args        json.RawMessage
	ArgsInvalid bool
	// Decision is the Policy's decision ("allow", "ask", "deny"), or ""
	// when the call never reached the Policy (unknown tool, invalid
	// arguments, calls paused because a record failed, calls refused
	// unrun by Registry.Refuse).
	Decision string
	// DecidedBy says who or what made the final decision (DecidedBy*,
	// By*); Rule names the rule or role (Verdict.Rule).
	DecidedBy string
	Rule      string
	// LoopDecidedBy is set when the loop guard stopped the call and the
	// user was asked whether to run it anyway: who or what answered
	// (By*, or DecidedByNoClient when nobody could be asked). For a call
	// the Policy allowed, the loop question: a no makes DecidedBy
	// DecidedByLoopGuard (Decision still the Policy's). For a call at
	// Ask, the permission question, which says the call repeats, answers
	// both: DecidedBy and LoopDecidedBy are its answerer — unless a
	// session grant answered it unseen, and then the loop question
	// follows as for an allowed call.
	LoopDecidedBy string
	// loopAllowed: a call the loop guard stopped went on to run, the
	// user having allowed it (Outcome.LoopAllowed).
	loopAllowed bool
	// Status is the call's Observer status: StatusOK, StatusError,
	// StatusDenied, StatusTimeout or StatusCancelled.
	Status string
	// ErrorClass classifies a failure (Classify; ClassValidation for an
	// unknown tool or unparsable arguments, ClassParameter for arguments
	// the schema rejects, none for a refused or cancelled call); Error is the
	// result's error text, redacted (RedactString), whole: the Recorder
	// bounds it (package tools/audit keeps audit.MaxError bytes).
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
// kept, or not safely (tools/audit: kept, but HEAD not rewritten): the
// Registry logs it and refuses further calls until a record succeeds
// again (fail closed: after a failed record, no further calls run). The
// record's error text comes whole (redacted); bounding it and the other
// fields is the Recorder's.
type Recorder interface {
	Record(r CallRecord) error
}

// RecorderChecker is a Recorder that can tell, before a call runs,
// whether its record could be kept (tools/audit: the log file is still
// in place). The Registry asks it before anyone is asked about a call
// and again right before running it, and refuses the call, pausing tool
// calls, when it cannot.
type RecorderChecker interface {
	Recorder
	Check() error
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

// auditPausedText is the model's (and the user's) result of a call
// refused while the audit log cannot be written.
const auditPausedText = "审计日志无法写入，工具调用已暂停。The audit log cannot be written; tool calls are paused."

// recordArgs puts the call's arguments in rec: redacted (Redact), as
// they are when nothing was redacted, or none (ArgsInvalid) when they
// are not JSON. Arguments with invalid UTF-8 in their strings (which
// json.Valid accepts) are re-encoded, each invalid byte becoming
// U+FFFD, so that no record carries them raw.
func recordArgs(rec *CallRecord, args json.RawMessage) {
	if !json.Valid(args) {
		rec.ArgsInvalid = true
		return
	}
	if red := Redact(args); red != nil {
		rec.Args = red
		return
	}
	if !utf8.Valid(args) {
		rec.Args = reencode(args)
		rec.ArgsInvalid = rec.Args == nil
		return
	}
	rec.Args = args
}

// reencode decodes valid JSON and encodes it again: invalid UTF-8
// becomes U+FFFD, numbers keep their text. Should that fail, the
// arguments are recorded as invalid rather than raw.
func reencode(args json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// audit completes rec from the call's result and hands it to the
// Recorder. A failed record pauses the registry's tool calls
// (auditPaused) until a record, that of a refused call included,
// succeeds again.
func (r *Registry) audit(rec *CallRecord, res Result) {
	if r.cfg.Audit == nil {
		return
	}
	if res.Error != "" {
		// Redacted whole: the Recorder cuts it (audit.MaxError), after
		// the redaction, so no secret straddles the cut.
		rec.Error = RedactString(res.Error)
	}
	if len(res.Output) > 0 {
		sum := sha256.Sum256(res.Output)
		rec.OutputBytes, rec.OutputSHA256 = len(res.Output), hex.EncodeToString(sum[:])
	}
	if err := r.cfg.Audit.Record(*rec); err != nil {
		r.pauseAudit(rec.Tool, err)
		return
	}
	if r.auditPaused.Swap(false) {
		r.cfg.Logger.Info("audit log writable again; tool calls resumed")
	}
}

// pauseAudit pauses tool calls because the audit log failed (err).
func (r *Registry) pauseAudit(tool string, err error) {
	if !r.auditPaused.Swap(true) {
		r.cfg.Logger.Error("audit record failed; tool calls paused", zap.String("tool", tool), zap.Error(err))
	} else {
		r.cfg.Logger.Debug("audit record failed", zap.String("tool", tool), zap.Error(err))
	}
}
