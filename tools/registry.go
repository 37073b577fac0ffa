package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.uber.org/zap"
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
}

// Observer is told about every finished call: the tool name, its status
// ("ok", "error", "denied" or "timeout") and how long it took.
type Observer interface {
	ToolCalled(tool, status string, d time.Duration)
}

// Call statuses reported to the Observer.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusDenied  = "denied"
	StatusTimeout = "timeout"
)

// Registry holds the tools and runs calls to them. It is safe for
// concurrent use.
type Registry struct {
	cfg Config

	mu    sync.RWMutex
	tools map[string]*entry
	order []string
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
	return &Registry{cfg: cfg, tools: make(map[string]*entry)}
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
}

// Execute runs one call. Every failure — unknown tool, bad JSON, schema
// violations, a policy refusal, a tool error, a panic, a timeout — comes
// back as an unsuccessful Result the model can read; Execute never
// panics and never returns an error.
func (r *Registry) Execute(ctx context.Context, call *Call, name, rawArgs string) Outcome {
	start := r.cfg.Now()
	res, status := r.execute(ctx, call, name, rawArgs)
	d := r.cfg.Now().Sub(start)
	res.DurationMS = d.Milliseconds()
	if r.cfg.Observer != nil {
		r.cfg.Observer.ToolCalled(name, status, d)
	}
	return r.outcome(name, res)
}

func (r *Registry) execute(ctx context.Context, call *Call, name, rawArgs string) (Result, string) {
	r.mu.RLock()
	e, ok := r.tools[name]
	names := r.order
	r.mu.RUnlock()
	if !ok {
		return failure("unknown tool %q; available tools: %s", name, strings.Join(names, ", ")), StatusError
	}
	args := json.RawMessage(strings.TrimSpace(rawArgs))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return failure("arguments for %s are not valid JSON: %v", name, err), StatusError
	}
	if err := e.schema.Validate(inst); err != nil {
		return failure("invalid arguments for %s: %s", name, validationText(err)), StatusError
	}
	if call.Loop != "" {
		// The loop guard stopped the call (loop.go). For the audit
		// record: a refused call's decider is the second value,
		// DecidedByLoopGuard or the answer's By.
		if res, _, ok := r.loopCheck(ctx, call, e.spec, args); !ok {
			return res, StatusDenied
		}
	}
	switch v := r.cfg.Policy.Decide(ctx, call, e.spec, args); v.Decision {
	case Allow:
		if v.Approved {
			approved := *call
			approved.Approved = true
			call = &approved
		}
	case Deny:
		return failure("call to %s denied by policy: %s", name, v.Reason), StatusDenied
	case Ask:
		if res, ok := r.confirm(ctx, call, e.spec, args, v); !ok {
			return res, StatusDenied
		}
		approved := *call
		approved.Approved = true
		call = &approved
	}
	timeout := e.spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := r.run(ctx, e.tool, call, args)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	res := Result{Success: err == nil}
	if out != nil {
		b, merr := json.Marshal(out)
		if merr != nil {
			return failure("%s returned unencodable output: %v", name, merr), StatusError
		}
		res.Output = b
	}
	status := StatusOK
	if err != nil {
		status = StatusError
		if errors.Is(err, context.DeadlineExceeded) {
			status = StatusTimeout
			err = fmt.Errorf("timed out after %s: %w", timeout, err)
		}
		res.Error = err.Error()
	}
	return res, status
}

// confirm asks the user about a call v put at Ask. It reports whether
// the call may run, and otherwise the result that tells the model why.
func (r *Registry) confirm(ctx context.Context, call *Call, spec Spec, args json.RawMessage, v Verdict) (Result, bool) {
	if call.Confirm == nil {
		return failure("call to %s needs the user's confirmation, and this client cannot be asked: %s", spec.Name, v.Reason), false
	}
	shown := v.Shown
	if shown == nil {
		shown = args
	}
	ans, err := call.Confirm(ctx, Confirmation{ToolCallID: call.ToolCallID, Tool: spec.Name, Args: shown, Risk: spec.Risk, Reason: v.Reason, Scope: v.Scope})
	switch {
	case err != nil:
		return failure("call to %s was not confirmed: %v", spec.Name, err), false
	case !ans.Allowed && ans.By == ByTimeout:
		return failure("the user did not answer the confirmation for %s in time, so it did not run; do not retry it unless the user asks again", spec.Name), false
	case !ans.Allowed:
		return failure("the user declined %s, so it did not run; do not retry it, and do not ask again in this turn", spec.Name), false
	}
	return Result{}, true
}

// run calls the tool, turning a panic into an error so one bad tool cannot
// take down the session.
func (r *Registry) run(ctx context.Context, t Tool, call *Call, args json.RawMessage) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.Error("tool panicked", zap.String("tool", t.Spec().Name), zap.Any("panic", p), zap.Stack("stack"))
			out, err = nil, fmt.Errorf("tool %s failed internally", t.Spec().Name)
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
		b, _ = json.Marshal(cutResult{res.Success, short, true, errText, res.DurationMS})
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
	b, _ := json.Marshal(cutResult{Success: res.Success, OutputTruncated: true, Error: "result too large", DurationMS: res.DurationMS})
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
	var parts []string
	var walk func(v *jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			loc := "/" + strings.Join(v.InstanceLocation, "/")
			parts = append(parts, fmt.Sprintf("%s: %s", loc, v.ErrorKind))
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}
