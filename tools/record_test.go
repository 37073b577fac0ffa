package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"unicode/utf8"
)

var errDiskFull = errors.New("write audit: no space left on device")

// fakeRecorder keeps the records it is given, failing while fail is set.
type fakeRecorder struct {
	mu   sync.Mutex
	recs []CallRecord
	fail bool
	errs int
}

func (f *fakeRecorder) Record(r CallRecord) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		f.errs++
		return errDiskFull
	}
	f.recs = append(f.recs, r)
	return nil
}

func (f *fakeRecorder) setFail(fail bool) {
	f.mu.Lock()
	f.fail = fail
	f.mu.Unlock()
}

func (f *fakeRecorder) take() []CallRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	recs := f.recs
	f.recs = nil
	return recs
}

// only returns the one record kept since the last take.
func (f *fakeRecorder) only(t *testing.T) CallRecord {
	t.Helper()
	recs := f.take()
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1: %+v", len(recs), recs)
	}
	return recs[0]
}

// fakeLimiter refuses every call, counting them.
type fakeLimiter struct {
	mu    sync.Mutex
	asked []string
	ok    bool
}

func (l *fakeLimiter) Allow(user, tool string) (bool, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, user+":"+tool)
	return l.ok, "Rate limit: " + user + " may call " + tool + " at most 5 times a minute; try again in about 12s."
}

func confirmWith(ans Confirmed, err error) func(context.Context, Confirmation) (Confirmed, error) {
	return func(context.Context, Confirmation) (Confirmed, error) { return ans, err }
}

// TestAuditEveryPath: each way a call can go ends in exactly one
// record with the call's identity, its arguments (redacted, or marked
// invalid), the decision and who made it, the status, the error's class
// and text, the attempts, and the output's size and hash.
func TestAuditEveryPath(t *testing.T) {
	ruleDeny := verdictPolicy{Verdict{Decision: Deny, Reason: "not here", By: DecidedByRule, Rule: "permissions.rules[2]"}}
	roleDeny := verdictPolicy{Verdict{Decision: Deny, Reason: "viewers read", By: DecidedByRole, Rule: "roles.viewer"}}
	ask := verdictPolicy{Verdict{Decision: Ask, Reason: "writes"}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	type want struct {
		decision, by, rule, status string
		class                      ErrorClass
		attempts                   int
		errHas                     string
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		ctx     context.Context
		confirm func(context.Context, Confirmation) (Confirmed, error)
		tool    string
		args    string
		want    want
	}{
		{name: "unknown tool", tool: "rm_rf", args: `{"x":1}`, want: want{status: StatusError, class: ClassValidation, errHas: "unknown tool"}},
		{name: "bad json", tool: "echo", args: `{"text":`, want: want{status: StatusError, class: ClassValidation, errHas: "not valid JSON"}},
		{name: "schema", tool: "echo", args: `{"text":5}`, want: want{status: StatusError, class: ClassParameter, errHas: "/text"}},
		{name: "rule deny", cfg: Config{Policy: ruleDeny}, tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "deny", by: DecidedByRule, rule: "permissions.rules[2]", status: StatusDenied, errHas: "not here"}},
		{name: "role deny", cfg: Config{Policy: roleDeny}, tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "deny", by: DecidedByRole, rule: "roles.viewer", status: StatusDenied, errHas: "viewers read"}},
		{name: "ask user yes", cfg: Config{Policy: ask}, confirm: confirmWith(Confirmed{Allowed: true, By: ByUser}, nil), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: ByUser, status: StatusOK, attempts: 1}},
		{name: "ask grant", cfg: Config{Policy: ask}, confirm: confirmWith(Confirmed{Allowed: true, By: BySessionGrant}, nil), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: BySessionGrant, status: StatusOK, attempts: 1}},
		{name: "ask user no", cfg: Config{Policy: ask}, confirm: confirmWith(Confirmed{By: ByUser}, nil), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: ByUser, status: StatusDenied, errHas: "declined"}},
		{name: "ask timeout", cfg: Config{Policy: ask}, confirm: confirmWith(Confirmed{By: ByTimeout}, nil), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: ByTimeout, status: StatusDenied, errHas: "in time"}},
		{name: "ask disconnect", cfg: Config{Policy: ask}, confirm: confirmWith(Confirmed{By: ByDisconnect}, nil), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: ByDisconnect, status: StatusDenied}},
		{name: "ask cancel", cfg: Config{Policy: ask}, ctx: cancelled, confirm: confirmWith(Confirmed{}, context.Canceled), tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: ByCancel, status: StatusDenied, errHas: "not confirmed"}},
		{name: "ask no client", cfg: Config{Policy: ask}, tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "ask", by: DecidedByNoClient, status: StatusDenied, errHas: "cannot be asked"}},
		{name: "rate limit", cfg: Config{Limiter: &fakeLimiter{}}, tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "allow", by: DecidedByRateLimit, status: StatusDenied, errHas: "try again in about 12s. Do not retry echo before then."}},
		{name: "panic", tool: "echo", args: `{"text":"a","mode":"panic"}`,
			want: want{decision: "allow", by: DecidedByDefault, status: StatusError, class: ClassExecution, attempts: 1, errHas: "failed internally"}},
		{name: "tool error", tool: "echo", args: `{"text":"a","mode":"fail"}`,
			want: want{decision: "allow", by: DecidedByDefault, status: StatusError, class: ClassExecution, attempts: 1, errHas: "it failed"}},
		{name: "timeout", tool: "echo", args: `{"text":"a","mode":"hang"}`,
			want: want{decision: "allow", by: DecidedByDefault, status: StatusTimeout, class: ClassTimeout, attempts: 3, errHas: "timed out after 200ms"}},
		{name: "ok", tool: "echo", args: `{"text":"a"}`,
			want: want{decision: "allow", by: DecidedByDefault, status: StatusOK, attempts: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &fakeRecorder{}
				cfg := tc.cfg
				cfg.Audit = rec
				r := newRegistry(t, cfg)
				ctx := tc.ctx
				if ctx == nil {
					ctx = context.Background()
				}
				call := &Call{SessionID: "s1", ClientType: "cli", User: "alice", Role: "operator", ToolCallID: "call_1", Confirm: tc.confirm}
				o := r.Execute(ctx, call, tc.tool, tc.args)
				got := rec.only(t)
				w := tc.want
				if got.User != "alice" || got.Role != "operator" || got.Session != "s1" || got.Client != "cli" || got.ToolCallID != "call_1" || got.Tool != tc.tool {
					t.Errorf("identity %+v", got)
				}
				if got.Decision != w.decision || got.DecidedBy != w.by || got.Rule != w.rule || got.Status != w.status ||
					got.ErrorClass != w.class || got.Attempts != w.attempts {
					t.Errorf("record %+v\nwant %+v", got, w)
				}
				if !strings.Contains(got.Error, w.errHas) || (got.Error == "") != (o.Result.Error == "") {
					t.Errorf("record error %q, result error %q, want %q", got.Error, o.Result.Error, w.errHas)
				}
				if tc.args == `{"text":` {
					if !got.ArgsInvalid || got.Args != nil {
						t.Errorf("invalid args recorded as %q", got.Args)
					}
				} else if got.ArgsInvalid || string(got.Args) != tc.args {
					t.Errorf("args %q, want %q", got.Args, tc.args)
				}
				sum := sha256.Sum256(o.Result.Output)
				if got.OutputBytes != len(o.Result.Output) || len(o.Result.Output) > 0 && got.OutputSHA256 != hex.EncodeToString(sum[:]) ||
					len(o.Result.Output) == 0 && got.OutputSHA256 != "" {
					t.Errorf("output %d bytes %s, result %d bytes", got.OutputBytes, got.OutputSHA256, len(o.Result.Output))
				}
				if got.Duration.Milliseconds() != o.Result.DurationMS {
					t.Errorf("duration %v, result %dms", got.Duration, o.Result.DurationMS)
				}
			})
		})
	}
}

// TestAuditRedacts: secrets in the arguments and in the error text are
// not recorded, wherever they are in a long error; the error is handed
// to the Recorder whole (it is the Recorder that cuts it: one owner);
// the full output is hashed, not the model's cut view.
func TestAuditRedacts(t *testing.T) {
	rec := &fakeRecorder{}
	r := newRegistry(t, Config{Audit: rec, MaxModelOutput: 1024})
	secret := "sk-abcdefghijklmnopqrstuvwxyz012345"
	text := "token=" + secret + " " + strings.Repeat("x", 5000) + " password=" + secret[3:]
	args, _ := json.Marshal(map[string]string{"text": text, "mode": "longerr"})
	o := r.Execute(context.Background(), &Call{}, "echo", string(args))
	got := rec.only(t)
	if strings.Contains(string(got.Args), secret[3:]) || !strings.Contains(string(got.Args), "***") || !json.Valid(got.Args) {
		t.Errorf("args %.200s", got.Args)
	}
	if strings.Contains(got.Error, secret[3:]) || got.Error != RedactString(o.Result.Error) || !strings.HasPrefix(got.Error, "cannot read token=***") ||
		!strings.HasSuffix(got.Error, "password=***") {
		t.Errorf("error %d bytes: %.200q", len(got.Error), got.Error)
	}
	if !strings.Contains(o.Result.Error, secret) {
		t.Error("the session's result lost its text")
	}

	o = r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"big"}`)
	got = rec.only(t)
	sum := sha256.Sum256(o.Result.Output)
	if !o.Truncated || got.OutputBytes != len(o.Result.Output) || got.OutputSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("big output recorded as %d bytes %s", got.OutputBytes, got.OutputSHA256)
	}
}

// counting counts its runs.
type counting struct {
	mu sync.Mutex
	n  int
}

func (*counting) Spec() Spec {
	return Spec{Name: "count", Parameters: json.RawMessage(`{"type":"object"}`), Risk: RiskReadOnly}
}

func (c *counting) Run(context.Context, *Call, json.RawMessage) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n, nil
}

// TestAuditFailClosed: once a record cannot be written, calls are
// refused (denied, decided by the audit) and the tool does not run; the
// refused call's own record is tried, and once one succeeds calls run
// again.
func TestAuditFailClosed(t *testing.T) {
	rec := &fakeRecorder{}
	r := NewRegistry(Config{Audit: rec})
	tool := &counting{}
	if err := r.Register(tool); err != nil {
		t.Fatal(err)
	}
	run := func() Outcome { return r.Execute(context.Background(), &Call{User: "alice"}, "count", `{}`) }

	rec.setFail(true)
	if o := run(); !o.Result.Success { // ran; its record failed
		t.Fatalf("%+v", o.Result)
	}
	for range 2 {
		o := run()
		if o.Result.Success || o.Result.Error != auditPausedText {
			t.Fatalf("call while the audit log fails: %+v", o.Result)
		}
	}
	if tool.n != 1 || rec.errs != 3 {
		t.Fatalf("tool ran %d times, %d records failed", tool.n, rec.errs)
	}
	rec.setFail(false)
	if o := run(); o.Result.Error != auditPausedText { // refused, but recorded
		t.Fatalf("first call after the disk recovered: %+v", o.Result)
	}
	got := rec.only(t)
	if got.Status != StatusDenied || got.DecidedBy != DecidedByAudit || got.Error != auditPausedText || got.Attempts != 0 || got.User != "alice" {
		t.Fatalf("record of the refused call %+v", got)
	}
	if o := run(); !o.Result.Success || tool.n != 2 {
		t.Fatalf("registry did not recover: %+v", o.Result)
	}
	if got := rec.only(t); got.Status != StatusOK {
		t.Fatalf("%+v", got)
	}
}

// TestRateLimitBeforeAsking: the limiter is asked after the Policy
// allowed the call or put it at Ask, with the call's user and tool; a
// refused call is not asked about and does not run; a denied call does
// not count.
func TestRateLimitBeforeAsking(t *testing.T) {
	lim := &fakeLimiter{}
	asked := false
	confirm := func(context.Context, Confirmation) (Confirmed, error) {
		asked = true
		return Confirmed{Allowed: true, By: ByUser}, nil
	}
	r := newRegistry(t, Config{Limiter: lim, Policy: verdictPolicy{Verdict{Decision: Ask}}})
	o := r.Execute(context.Background(), &Call{User: "bob", Confirm: confirm}, "echo", `{"text":"a"}`)
	if o.Result.Success || asked || !strings.Contains(o.Result.Error, "Rate limit: bob may call echo") {
		t.Fatalf("asked %v: %+v", asked, o.Result)
	}
	denied := newRegistry(t, Config{Limiter: lim, Policy: policy{Deny, "no"}})
	denied.Execute(context.Background(), &Call{User: "bob"}, "echo", `{"text":"a"}`)
	newRegistry(t, Config{Limiter: lim}).Execute(context.Background(), &Call{User: "bob"}, "echo", `{"text":`)
	if strings.Join(lim.asked, " ") != "bob:echo" {
		t.Fatalf("limiter asked %v", lim.asked)
	}
	lim.ok = true
	if o := r.Execute(context.Background(), &Call{User: "bob", Confirm: confirm}, "echo", `{"text":"a"}`); !o.Result.Success || !asked {
		t.Fatalf("allowed by the limiter: %+v", o.Result)
	}
}

// BenchmarkExecuteAudited is ExecuteOverhead with a Recorder that keeps
// nothing: the cost of building the record (redaction, output hash).
func BenchmarkExecuteAudited(b *testing.B) {
	r := NewRegistry(Config{Audit: discardRecorder{}})
	r.Register(echo{})
	call := &Call{}
	b.ReportAllocs()
	for b.Loop() {
		if o := r.Execute(context.Background(), call, "echo", `{"text":"hello","mode":"ok","n":3}`); !o.Result.Success {
			b.Fatal(o.Result.Error)
		}
	}
}

type discardRecorder struct{}

func (discardRecorder) Record(CallRecord) error { return nil }

// TestAuditArgsInvalidUTF8: arguments whose strings hold invalid UTF-8
// (valid JSON all the same) are recorded re-encoded, each bad byte as
// U+FFFD, whether or not something was redacted; numbers keep their
// text.
func TestAuditArgsInvalidUTF8(t *testing.T) {
	rec := &fakeRecorder{}
	r := newRegistry(t, Config{Audit: rec})
	for _, tc := range []struct{ args, want string }{
		{"{\"text\":\"a\xff\xfeb\",\"n\":12345678901234567890}", `{"n":12345678901234567890,"text":"a\ufffd\ufffdb"}`},
		{"{\"text\":\"\xc3 token=sk-abcdefghijklmnopqrstuvwxyz012345\"}", `{"text":"\ufffd token=***"}`},
		{"{\"text\":\"ok\"}", `{"text":"ok"}`},
	} {
		r.Execute(context.Background(), &Call{}, "echo", tc.args)
		got := rec.only(t)
		if !utf8.Valid(got.Args) || got.ArgsInvalid || !json.Valid(got.Args) {
			t.Errorf("%q recorded as %q (invalid %v)", tc.args, got.Args, got.ArgsInvalid)
			continue
		}
		var g, w any
		json.Unmarshal(got.Args, &g)
		json.Unmarshal([]byte(tc.want), &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) || !strings.Contains(string(got.Args), "12345678901234567890") && strings.Contains(tc.want, "1234") {
			t.Errorf("%q recorded as %s, want %s", tc.args, got.Args, tc.want)
		}
	}
}

// TestRefuse: a call refused unrun is recorded like any other — the
// caller's identity, the arguments redacted, no decision, the given
// decider, denied, the reason as error, never run — the Observer sees
// it denied, and the model is given the reason.
func TestRefuse(t *testing.T) {
	rec := &fakeRecorder{}
	obs := &observed{}
	r := NewRegistry(Config{Audit: rec, Observer: obs})
	tool := &counting{}
	if err := r.Register(tool); err != nil {
		t.Fatal(err)
	}
	call := &Call{SessionID: "s1", ClientType: "web", User: "alice", Role: "viewer", ToolCallID: "call_7"}
	o := r.Refuse(call, "count", ` {"password":"hunter2"} `, DecidedByStepLimit, "not run: at most 8 tool calls per step")
	if o.Result.Success || o.Result.Error != "not run: at most 8 tool calls per step" || !strings.Contains(o.ForModel, "not run") || tool.n != 0 {
		t.Fatalf("%+v, ran %d", o, tool.n)
	}
	got := rec.only(t)
	if got.User != "alice" || got.Role != "viewer" || got.Session != "s1" || got.Client != "web" || got.ToolCallID != "call_7" || got.Tool != "count" ||
		got.Decision != "" || got.DecidedBy != DecidedByStepLimit || got.Status != StatusDenied || got.Attempts != 0 ||
		got.Error != "not run: at most 8 tool calls per step" || string(got.Args) != `{"password":"***"}` {
		t.Fatalf("record %+v", got)
	}
	if len(obs.calls) != 1 || obs.calls[0] != "count:denied" {
		t.Fatalf("observer %v", obs.calls)
	}
	r.Refuse(nil, "no_such_tool", "", DecidedByStepLimit, "x")
	if got := rec.only(t); got.Tool != "no_such_tool" || string(got.Args) != "{}" || got.DecidedBy != DecidedByStepLimit {
		t.Fatalf("record %+v", got)
	}
}
