package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.uber.org/zap"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"opsassist/api"
)

// DefaultTimeout bounds a call whose Spec sets no timeout.
const DefaultTimeout = 30 * time.Second

// Config configures a Registry.
type Config struct {
	// Policy decides each call. Default AllowAll.
	Policy Policy
	// MaxModelOutput caps the output the model sees, in bytes. Default
	// DefaultMaxModelOutput (16 KiB); at least MinModelOutput.
	MaxModelOutput int
	// Observer, if set, is told about every finished call
	// (metrics.Metrics).
	Observer Observer
	// Audit, if set, receives a record of every call (package
	// tools/audit). Default: none.
	Audit Recorder
	// Limiter, if set, refuses calls over a user's rate limit for the
	// tool (package tools/ratelimit). Default: none.
	Limiter RateLimiter
	// Retry is how transient failures are retried (RetryPolicy).
	Retry RetryPolicy
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// Now returns the current time. Default time.Now.
	Now func() time.Time
	// Jitter returns a number in [0, 1) for the retry delay's jitter.
	// Default math/rand/v2.Float64.
	Jitter func() float64
	// MaxOffered caps the tools offered to the model (Offered). Default
	// DefaultMaxOffered.
	MaxOffered int
}

// DefaultMaxOffered is the default cap on the tools offered to the
// model: over about 128 tools, OpenAI-compatible APIs refuse the request.
const DefaultMaxOffered = 100

// Observer is told about every finished call: the tool name, its status
// ("ok", "error", "denied", "timeout" or "cancelled") and how long it
// took.
type Observer interface {
	ToolCalled(tool, status string, d time.Duration)
}

// Call statuses reported to the Observer.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusDenied  = "denied"
	StatusTimeout = "timeout"
	// StatusCancelled is a call that ran and was stopped by its caller:
	// the context Execute was given was cancelled (the user cancelled
	// the turn or the direct call, the client left) — not a timeout,
	// not a failure of the tool.
	StatusCancelled = "cancelled"
)

// Registry holds the tools and runs calls to them. It is safe for
// concurrent use.
type Registry struct {
	cfg Config

	mu    sync.RWMutex
	tools map[string]*entry
	order []string

	// leftWarned is the tools Offered last warned about, joined, so a
	// warning is logged once per change.
	leftWarned string
	// maxOffered is Config.MaxOffered, or what SetMaxOffered set.
	maxOffered int

	// auditPaused is set while the Recorder fails: calls are refused
	// until a record succeeds again.
	auditPaused atomic.Bool
}

type entry struct {
	tool   Tool
	spec   Spec
	schema *jsonschema.Schema
}

// NewRegistry returns an empty Registry.
func NewRegistry(cfg Config) *Registry {
	if cfg.Policy == nil {
		cfg.Policy = AllowAll{}
	}
	if cfg.MaxModelOutput <= 0 {
		cfg.MaxModelOutput = DefaultMaxModelOutput
	}
	cfg.MaxModelOutput = max(cfg.MaxModelOutput, MinModelOutput)
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	if cfg.MaxOffered <= 0 {
		cfg.MaxOffered = DefaultMaxOffered
	}
	cfg.Retry = cfg.Retry.withDefaults()
	return &Registry{cfg: cfg, tools: make(map[string]*entry), maxOffered: cfg.MaxOffered}
}

// SetMaxOffered changes the cap on the tools offered to the model
// (Config.MaxOffered; n <= 0: DefaultMaxOffered) for the next Offered:
// the configuration's limits.max_tools, reloaded.
func (r *Registry) SetMaxOffered(n int) {
	if n <= 0 {
		n = DefaultMaxOffered
	}
	r.mu.Lock()
	r.maxOffered = n
	r.mu.Unlock()
}

// Register adds a tool. Its name must be new and its parameter schema
// must compile.
func (r *Registry) Register(t Tool) error {
	spec := t.Spec()
	if spec.Name == "" {
		return errors.New("tools: tool without a name")
	}
	schema, err := compileSchema(spec)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[spec.Name]; dup {
		return fmt.Errorf("tools: %q registered twice", spec.Name)
	}
	r.tools[spec.Name] = &entry{tool: t, spec: spec, schema: schema}
	r.order = append(r.order, spec.Name)
	return nil
}

func compileSchema(spec Spec) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(spec.Parameters))
	if err != nil {
		return nil, fmt.Errorf("tools: %s: parameters schema: %w", spec.Name, err)
	}
	c := jsonschema.NewCompiler()
	// Only references within the schema resolve: a tool's schema (an MCP
	// server's, say) must not make the daemon open a local file
	// ("$ref": "file:///…", a FIFO would block) or fetch a URL.
	c.UseLoader(noLoader{})
	url := "mem://tools/" + spec.Name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tools: %s: %w", spec.Name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tools: %s: parameters schema: %w", spec.Name, err)
	}
	return s, nil
}

// noLoader refuses every external schema a $ref names.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("tools: schema reference %q: only references within the schema are allowed", url)
}

// Specs returns the registered tools' specs in registration order.
func (r *Registry) Specs() []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Spec, len(r.order))
	for i, n := range r.order {
		out[i] = r.tools[n].spec
	}
	return out
}

// Names returns the registered tool names in registration order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.order)
}

// Outcome is a finished call: the full Result for the session, and the
// JSON the model is given, capped to MaxModelOutput.
type Outcome struct {
	Tool     string
	Result   Result
	ForModel string
	// Truncated reports whether ForModel had to be cut.
	Truncated bool
	// LoopAllowed reports that the call was one the loop guard stopped
	// (Call.Loop) and the user let it go on — through the loop question,
	// or the permission question that said the call repeats.
	LoopAllowed bool
}

// Execute runs one call. Every failure — unknown tool, bad JSON, schema
// violations, a policy refusal, a rate limit, a tool error, a panic, a
// timeout — comes back as an unsuccessful Result the model can read;
// Execute never panics and never returns an error. Transient failures
// are retried (RetryPolicy). Every call, whatever happened to it, is
// reported once to the Observer and once to the Recorder (Config.Audit);
// while the Recorder fails, calls are refused (fail closed).
func (r *Registry) Execute(ctx context.Context, call *Call, name, rawArgs string) Outcome {
	if call == nil {
		call = &Call{}
	}
	start := r.cfg.Now()
	rec := newRecord(call, name, start)
	res, status := r.execute(ctx, call, name, rawArgs, &rec)
	o := r.finish(&rec, start, res, status)
	o.LoopAllowed = rec.loopAllowed
	return o
}

// Refuse records a call that is not run and returns its refused
// Outcome: a call its caller decided against before handing it over,
// such as the agent's calls over its calls per step, or made on a
// turn's last step (DecidedByStepLimit). The record is built as
// Execute's — the call's user, role and session, the arguments
// redacted — with no decision (Decision ""), decidedBy as its decider,
// Status denied and reason as its error; the Observer sees it denied.
// The tool is not looked up: name may be unknown.
func (r *Registry) Refuse(call *Call, name, rawArgs, decidedBy, reason string) Outcome {
	if call == nil {
		call = &Call{}
	}
	start := r.cfg.Now()
	rec := newRecord(call, name, start)
	if r.cfg.Audit != nil {
		recordArgs(&rec, callArgs(rawArgs))
	}
	rec.DecidedBy = decidedBy
	return r.finish(&rec, start, Result{Error: reason}, StatusDenied)
}

// newRecord starts the record of a call of name that started at start.
func newRecord(call *Call, name string, start time.Time) CallRecord {
	return CallRecord{
		Time: start, User: call.User, Role: call.Role, Session: call.SessionID,
		Client: call.ClientType, ToolCallID: call.ToolCallID, Tool: name, Direct: call.Direct,
	}
}

// finish ends a call: its duration, the Observer, the Recorder, and the
// model's view of res.
func (r *Registry) finish(rec *CallRecord, start time.Time, res Result, status string) Outcome {
	d := r.cfg.Now().Sub(start)
	res.DurationMS = d.Milliseconds()
	if r.cfg.Observer != nil {
		r.cfg.Observer.ToolCalled(rec.Tool, status, d)
	}
	rec.Status, rec.Duration = status, d
	if !res.Success && res.Code == "" {
		res.Code = failureCode(rec)
	}
	r.audit(rec, res)
	return r.outcome(rec.Tool, res)
}

// callArgs is a call's arguments as the Registry handles them: trimmed,
// "{}" when there are none.
func callArgs(rawArgs string) json.RawMessage {
	args := json.RawMessage(strings.TrimSpace(rawArgs))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return args
}

// execute decides and runs one call, filling in rec as it goes: its
// arguments, the decision and who made it, the attempts, the error's
// class. The order: the audit log is checked (a call whose record could
// not be kept is refused); the arguments are validated; the Policy
// decides (a denied call is refused, nobody asked); the rate limiter
// counts the call; a call at Ask is confirmed — a direct call
// (Call.Direct) by its request, DecidedByDirect, nobody asked; for a call the loop
// guard stopped (call.Loop), by a question that says it repeats; a
// stopped call the user has not allowed that way gets the loop guard's
// own question (loop.go); the audit log is checked again; then the call
// runs, with retries. Unknown tools and unparsable arguments are
// ClassValidation, arguments the schema rejects ClassParameter; refused
// calls have no class.
func (r *Registry) execute(ctx context.Context, call *Call, name, rawArgs string, rec *CallRecord) (Result, string) {
	args := callArgs(rawArgs)
	if r.cfg.Audit != nil {
		recordArgs(rec, args)
	}
	if r.auditPaused.Load() {
		rec.DecidedBy = DecidedByAudit
		return Result{Error: auditPausedText}, StatusDenied
	}
	if res, ok := r.checkAudit(rec); !ok {
		return res, StatusDenied // nobody is asked about a call whose record could not be kept
	}
	r.mu.RLock()
	e, ok := r.tools[name]
	names := r.order
	r.mu.RUnlock()
	if !ok {
		rec.ErrorClass = ClassValidation
		return failure("unknown tool %q; available tools: %s", name, strings.Join(names, ", ")), StatusError
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		rec.ErrorClass = ClassValidation
		return failure("arguments for %s are not valid JSON: %v", name, err), StatusError
	}
	if err := e.schema.Validate(inst); err != nil {
		rec.ErrorClass = ClassParameter
		return failure("invalid arguments for %s: %s", name, validationText(err)), StatusError
	}
	v := r.cfg.Policy.Decide(ctx, call, e.spec, args)
	rec.Decision, rec.DecidedBy, rec.Rule = v.Decision.String(), v.By, v.Rule
	if rec.DecidedBy == "" {
		rec.DecidedBy = DecidedByDefault
	}
	if v.Decision == Deny {
		res := failure("call to %s denied by policy: %s", name, v.Reason)
		res.Code = v.Code
		return res, StatusDenied
	}
	// Refusals of a call the Policy let through (allowed or put at Ask)
	// come here, before anybody is asked: each sets rec.DecidedBy and
	// returns a denied Result.
	if res, ok := r.limit(call, name, rec); !ok {
		return res, StatusDenied
	}
	switch v.Decision {
	case Allow:
		if v.Approved {
			approved := *call
			approved.Approved = true
			call = &approved
		}
	case Ask:
		if call.Direct && call.Loop == "" {
			// The explicit request is the confirmation.
			rec.DecidedBy = DecidedByDirect
			approved := *call
			approved.Approved = true
			call = &approved
			break
		}
		repeat := call.Loop != ""
		if repeat {
			// The loop guard stopped a call the user is asked about
			// anyway: the permission question says the call repeats (and
			// is never answered by a question in flight that did not).
			q := loopQuestion(call, e.spec)
			v.Reason = q.Both() + " " + v.Reason
			if !v.ReasonText.IsZero() {
				v.ReasonText = q.Then(v.ReasonText)
			}
		}
		res, ok := r.confirm(ctx, call, e.spec, args, v, repeat, rec)
		if repeat && (!ok || rec.DecidedBy == ByUser) {
			// The answer to the question that said the call repeats
			// answers the loop guard too: a no, with the guard's reason
			// for the model; a yes, the user's.
			rec.LoopDecidedBy = rec.DecidedBy
		}
		if !ok {
			if repeat {
				res.Error += " " + call.Loop
			}
			return res, StatusDenied
		}
		approved := *call
		approved.Approved = true
		call = &approved
	}
	if call.Loop != "" && rec.LoopDecidedBy == "" {
		// The loop guard stopped a call that would now run without the
		// user having seen it repeat (allowed without asking, or by a
		// session grant): it runs only if the user says so (loop.go).
		// A call the user declined was refused above, unasked again.
		res, by, ok := r.loopCheck(ctx, call, e.spec, args)
		rec.LoopDecidedBy = by
		if !ok {
			rec.DecidedBy, rec.Rule = DecidedByLoopGuard, ""
			return res, StatusDenied
		}
	}
	// Last: a call runs only when its record can be kept.
	if res, ok := r.checkAudit(rec); !ok {
		return res, StatusDenied
	}
	rec.loopAllowed = call.Loop != ""
	return r.runWithRetries(ctx, e, call, args, rec)
}

// checkAudit asks a Recorder that can tell (RecorderChecker) whether a
// record could be kept now; when not, it pauses tool calls and returns
// the refusal.
func (r *Registry) checkAudit(rec *CallRecord) (Result, bool) {
	c, ok := r.cfg.Audit.(RecorderChecker)
	if !ok {
		return Result{}, true
	}
	if err := c.Check(); err != nil {
		r.pauseAudit(rec.Tool, err)
		rec.DecidedBy, rec.Rule = DecidedByAudit, ""
		return Result{Error: auditPausedText}, false
	}
	return Result{}, true
}

// limit asks the RateLimiter about the call. It reports whether the
// call may go on, and otherwise the result that tells the model why.
func (r *Registry) limit(call *Call, name string, rec *CallRecord) (Result, bool) {
	if r.cfg.Limiter == nil {
		return Result{}, true
	}
	ok, reason := r.cfg.Limiter.Allow(call.User, name)
	if ok {
		return Result{}, true
	}
	rec.DecidedBy, rec.Rule = DecidedByRateLimit, ""
	return failure("%s Do not retry %s before then.", reason, name), false
}

// confirm asks the user about a call v put at Ask, and records who
// answered in rec. It reports whether the call may run, and otherwise
// the result that tells the model why.
func (r *Registry) confirm(ctx context.Context, call *Call, spec Spec, args json.RawMessage, v Verdict, repeat bool, rec *CallRecord) (Result, bool) {
	if call.Confirm == nil {
		rec.DecidedBy = DecidedByNoClient
		return failure("call to %s needs the user's confirmation, and this client cannot be asked: %s", spec.Name, v.Reason), false
	}
	shown := v.Shown
	if shown == nil {
		shown = args
	}
	ans, err := call.Confirm(ctx, Confirmation{ToolCallID: call.ToolCallID, Tool: spec.Name, Args: shown, Risk: spec.Risk, Reason: v.Reason, ReasonText: v.ReasonText, Scope: v.Scope, Key: grantKey(spec.Name, v, args), Repeat: repeat})
	rec.DecidedBy = answerer(ctx, ans)
	switch {
	case err != nil:
		return failure("call to %s was not confirmed: %v", spec.Name, err), false
	case !ans.Allowed && ans.By == ByTimeout:
		return failure("the user did not answer the confirmation for %s in time, so it did not run; do not retry it unless the user asks again", spec.Name), false
	case !ans.Allowed && ans.By == ByCancel && turnless(call):
		return failure("the user dismissed the confirmation for %s (or the request was cancelled), so it did not run", spec.Name), false
	case !ans.Allowed && ans.By == ByCancel:
		return failure("the user cancelled the turn before answering, so %s did not run", spec.Name), false
	case !ans.Allowed && ans.By == ByDisconnect:
		return failure("the client left before answering, so %s did not run", spec.Name), false
	case !ans.Allowed && ans.By == DecidedByNoClient:
		return failure("call to %s needs the user's confirmation, and the client had no terminal to ask the user on, so it did not run; the user was not asked and did not decline: tell them to run it from a terminal or allow it with --yes", spec.Name), false
	case !ans.Allowed && turnless(call):
		return failure("the user declined %s, so it did not run; do not retry it in this session unless the user asks for it again", spec.Name), false
	case !ans.Allowed:
		return failure("the user declined %s, so it did not run; do not retry it, and do not ask again in this turn", spec.Name), false
	}
	return Result{}, true
}

// grantKey is what a grant of a call of tool with the raw args, put at
// Ask by v, is matched on: the Verdict's ScopeKey, or api.GrantKey of
// its Scope, or, when it gave none, of the raw arguments — never of the
// redacted ones the user is shown.
func grantKey(tool string, v Verdict, args json.RawMessage) string {
	switch {
	case v.Scope != "" && v.ScopeKey != "":
		return v.ScopeKey
	case v.Scope != "":
		return api.GrantKey(tool, v.Scope, nil)
	}
	return api.GrantKey(tool, "", args)
}

// turnless reports whether call comes with no chat turn around it — an
// MCP client's call (api.ClientMCP) or a direct call — so that a refusal
// the model reads speaks of the session, never of a turn.
func turnless(call *Call) bool { return call.ClientType == api.ClientMCP || call.Direct }

// answerer is who answered a question (Confirmed.By); when Confirm
// failed without saying, the turn ended (ByCancel, its context) or the
// client went away (ByDisconnect).
func answerer(ctx context.Context, ans Confirmed) string {
	switch {
	case ans.By != "":
		return ans.By
	case ctx.Err() != nil:
		return ByCancel
	}
	return ByDisconnect
}

// run calls the tool, turning a panic into an error so one bad tool cannot
// take down the session.
func (r *Registry) run(ctx context.Context, t Tool, call *Call, args json.RawMessage) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.Error("tool panicked", zap.String("tool", t.Spec().Name), zap.Any("panic", p), zap.Stack("stack"))
			out, err = nil, WithClass(ClassExecution, fmt.Errorf("tool %s failed internally", t.Spec().Name))
		}
	}()
	return t.Run(ctx, call, args)
}

// envelopeBytes is room for the JSON around a cut output and error.
const envelopeBytes = 200

// MinModelOutput is the smallest MaxModelOutput; smaller values are
// raised to it, so the shortest view of a result always fits.
const MinModelOutput = 256

// outcome builds the model's view of res. When the full result does not
// fit MaxModelOutput, the output and the error are cut, head and tail:
// the error to at most a quarter, the output to the rest. JSON escaping
// can make either several times longer than the bytes kept (six bytes
// for a '<' or an invalid byte), so the part taking more room is shrunk
// until the whole fits; should that fail, the view is the result's
// success, the truncation flag and "result too large". ForModel is
// always valid JSON and UTF-8 of at most MaxModelOutput bytes: a tool
// error quoting a 60 KB argument is cut like any output.
func (r *Registry) outcome(name string, res Result) Outcome {
	o := Outcome{Tool: name, Result: res}
	b, _ := json.Marshal(res)
	limit := r.cfg.MaxModelOutput
	if len(b) <= limit {
		o.ForModel = string(b)
		return o
	}
	o.Truncated = true
	out := string(res.Output)
	errBudget := min(len(res.Error), limit/4)
	outBudget := min(len(out), max(0, limit-envelopeBytes-errBudget))
	for range 64 {
		errText, _ := headTail(res.Error, errBudget)
		short, _ := headTail(out, outBudget)
		b, _ = json.Marshal(cutResult{res.Success, short, true, errText, res.Code, res.DurationMS})
		over := len(b) - limit
		if over <= 0 {
			o.ForModel = string(b)
			return o
		}
		outLen, errLen := jsonLen(short), jsonLen(errText)
		switch {
		case outBudget > 0 && (outLen >= errLen || errBudget == 0):
			outBudget = shrink(outBudget, over, outLen)
		case errBudget > 0:
			errBudget = shrink(errBudget, over, errLen)
		default:
			// Both at nothing and still over: only the truncation notes
			// are left, and they do not fit.
			o.ForModel = minimalView(res)
			return o
		}
	}
	o.ForModel = minimalView(res)
	return o
}

// shrink lowers budget, whose part takes encoded bytes in the JSON, by
// its share of over, the bytes the whole is too long, and two more for
// the truncation note's count, which may grow a digit. Each raw byte is
// one to six bytes of JSON, so a few rounds always end.
func shrink(budget, over, encoded int) int {
	return max(0, budget-over*budget/max(encoded, 1)-2)
}

// jsonLen is the length of s as a JSON string, without its quotes.
func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b) - 2
}

// minimalView is the model's view of a result nothing of which fits:
// under 128 bytes, less than MinModelOutput.
func minimalView(res Result) string {
	b, _ := json.Marshal(cutResult{Success: res.Success, OutputTruncated: true, Error: "result too large", Code: res.Code, DurationMS: res.DurationMS})
	return string(b)
}

// cutResult is the model's view of a Result too long to give whole. An
// empty output is left out, as in a Result, so a failure whose error was
// cut still reads as a failure without output.
type cutResult struct {
	Success         bool   `json:"success"`
	Output          string `json:"output,omitempty"`
	OutputTruncated bool   `json:"output_truncated"`
	Error           string `json:"error,omitempty"`
	Code            string `json:"code,omitempty"`
	DurationMS      int64  `json:"duration_ms"`
}

func failure(format string, args ...any) Result {
	return Result{Error: fmt.Sprintf(format, args...)}
}

// validationText flattens a schema validation error to one line per
// problem.
func validationText(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	english := message.NewPrinter(language.English) // "missing property 'command'", not a Go value
	var parts []string
	var walk func(v *jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			loc := "/" + strings.Join(v.InstanceLocation, "/")
			parts = append(parts, fmt.Sprintf("%s: %s", loc, v.ErrorKind.LocalizedString(english)))
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}
