package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"opsassist/api"
)

// echo returns its arguments, or misbehaves on request.
type echo struct{ timeout time.Duration }

func (e echo) Spec() Spec {
	return Spec{
		Name:        "echo",
		Description: "echoes",
		Parameters: json.RawMessage(`{"type":"object","properties":{
			"text":{"type":"string"},
			"mode":{"type":"string","enum":["ok","fail","panic","hang","big","longerr"]},
			"n":{"type":"integer","minimum":1}},
			"required":["text"],"additionalProperties":false}`),
		Risk:    RiskReadOnly,
		Timeout: e.timeout,
	}
}

func (echo) Run(ctx context.Context, call *Call, args json.RawMessage) (any, error) {
	var a struct {
		Text string `json:"text"`
		Mode string `json:"mode"`
	}
	json.Unmarshal(args, &a)
	switch a.Mode {
	case "fail":
		return map[string]string{"partial": a.Text}, errors.New("it failed")
	case "panic":
		panic("boom")
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	case "big":
		return map[string]string{"data": strings.Repeat("数据", 20000)}, nil
	case "longerr":
		// A tool error quoting its input, as command_executor's do.
		return map[string]string{"partial": a.Text}, errors.New("cannot read " + a.Text)
	}
	if call.Approved {
		return map[string]string{"text": a.Text, "session": call.SessionID, "approved": "yes"}, nil
	}
	return map[string]string{"text": a.Text, "session": call.SessionID}, nil
}

func newRegistry(t *testing.T, cfg Config) *Registry {
	r := NewRegistry(cfg)
	if err := r.Register(echo{timeout: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecuteOK(t *testing.T) {
	r := newRegistry(t, Config{})
	o := r.Execute(context.Background(), &Call{SessionID: "s1"}, "echo", `{"text":"你好"}`)
	if !o.Result.Success || string(o.Result.Output) != `{"session":"s1","text":"你好"}` || o.Truncated {
		t.Fatalf("%+v", o)
	}
	var m Result
	if err := json.Unmarshal([]byte(o.ForModel), &m); err != nil || !m.Success {
		t.Fatalf("ForModel %q", o.ForModel)
	}
}

func TestBadCallsBecomeStructuredErrors(t *testing.T) {
	r := newRegistry(t, Config{})
	tests := []struct{ name, tool, args, want string }{
		{"unknown tool", "rm_rf", `{}`, `unknown tool "rm_rf"; available tools: echo`},
		{"bad json", "echo", `{"text":`, "not valid JSON"},
		{"not an object", "echo", `[1]`, "invalid arguments"},
		{"wrong type", "echo", `{"text":5}`, "/text"},
		{"enum", "echo", `{"text":"a","mode":"explode"}`, "/mode"},
		{"missing required", "echo", `{}`, "text"},
		{"unknown property", "echo", `{"text":"a","extra":1}`, "extra"},
		{"minimum", "echo", `{"text":"a","n":0}`, "/n"},
		{"empty args means {}", "echo", ``, "text"},
	}
	for _, tt := range tests {
		o := r.Execute(context.Background(), &Call{}, tt.tool, tt.args)
		if o.Result.Success || !strings.Contains(o.Result.Error, tt.want) {
			t.Errorf("%s: %+v, want error containing %q", tt.name, o.Result, tt.want)
		}
	}
}

func TestToolFailurePanicTimeout(t *testing.T) {
	// A read-only tool's timeout is retried: fake time.
	synctest.Test(t, func(t *testing.T) {
		r := newRegistry(t, Config{})
		o := r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"fail"}`)
		if o.Result.Success || o.Result.Error != "it failed" || string(o.Result.Output) != `{"partial":"x"}` {
			t.Fatalf("fail: %+v", o.Result)
		}
		o = r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"panic"}`)
		if o.Result.Success || !strings.Contains(o.Result.Error, "failed internally") {
			t.Fatalf("panic: %+v", o.Result)
		}
		o = r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"hang"}`)
		if o.Result.Success || !strings.Contains(o.Result.Error, "timed out after 200ms") {
			t.Fatalf("hang: %+v", o.Result)
		}
	})
}

type policy struct {
	d   Decision
	why string
}

func (p policy) Decide(_ context.Context, _ *Call, s Spec, _ json.RawMessage) Verdict {
	return Verdict{Decision: p.d, Reason: p.why}
}

func TestPolicy(t *testing.T) {
	for _, tc := range []struct {
		p    policy
		want string
	}{
		{policy{Deny, "not today"}, "denied by policy: not today"},
		{policy{Ask, "writes files"}, "needs the user's confirmation, and this client cannot be asked: writes files"},
	} {
		r := newRegistry(t, Config{Policy: tc.p})
		o := r.Execute(context.Background(), &Call{}, "echo", `{"text":"x"}`)
		if o.Result.Success || !strings.Contains(o.Result.Error, tc.want) {
			t.Errorf("%v: %+v", tc.p.d, o.Result)
		}
	}
	if Allow.String() != "allow" || Ask.String() != "ask" || Deny.String() != "deny" {
		t.Fatal("Decision.String")
	}
}

// TestAskConfirms: a call the policy puts at Ask runs, marked Approved,
// only when Confirm allows it; a no, a timeout or an error tells the
// model not to retry; Confirm sees the tool call id, the risk, the
// verdict's reason and scope, and the redacted arguments; the caller's
// Call is not changed.
func TestAskConfirms(t *testing.T) {
	shown := json.RawMessage(`{"text":"***"}`)
	pol := verdictPolicy{Verdict{Decision: Ask, Reason: "reads /etc", Scope: "echo:/etc/", Shown: shown}}
	r := newRegistry(t, Config{Policy: pol})
	for _, tc := range []struct {
		name string
		ans  Confirmed
		err  error
		want string
	}{
		{"allowed", Confirmed{Allowed: true, By: ByUser}, nil, `"approved":"yes"`},
		{"granted", Confirmed{Allowed: true, By: BySessionGrant}, nil, `"approved":"yes"`},
		{"declined", Confirmed{By: ByUser}, nil, "the user declined echo"},
		{"disconnect", Confirmed{By: ByDisconnect}, nil, "the client left before answering, so echo did not run"},
		{"cancel", Confirmed{By: ByCancel}, nil, "the user cancelled the turn before answering, so echo did not run"},
		{"timeout", Confirmed{By: ByTimeout}, nil, "did not answer the confirmation for echo in time"},
		{"error", Confirmed{}, errors.New("gone"), "was not confirmed: gone"},
	} {
		var got Confirmation
		call := &Call{SessionID: "s1", ToolCallID: "call_7", Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
			got = c
			return tc.ans, tc.err
		}}
		o := r.Execute(context.Background(), call, "echo", `{"text":"secret"}`)
		text := string(o.Result.Output) + o.Result.Error
		if o.Result.Success != tc.ans.Allowed || !strings.Contains(text, tc.want) {
			t.Errorf("%s: %+v", tc.name, o.Result)
		}
		if got.ToolCallID != "call_7" || got.Tool != "echo" || string(got.Args) != string(shown) || got.Risk != RiskReadOnly ||
			got.Reason != "reads /etc" || got.Scope != "echo:/etc/" {
			t.Errorf("%s: confirmation %+v", tc.name, got)
		}
		if call.Approved {
			t.Errorf("%s: the caller's Call was marked approved", tc.name)
		}
	}
}

// TestRefusalWordedForMCP: a refusal an MCP client's model reads
// speaks of the session, never of a chat turn (there is none); the chat
// texts stay as they were.
func TestRefusalWordedForMCP(t *testing.T) {
	r := newRegistry(t, Config{Policy: verdictPolicy{Verdict{Decision: Ask, Reason: "r"}}})
	for _, tc := range []struct {
		client string
		by     string
		want   string
	}{
		{api.ClientMCP, ByUser, "the user declined echo, so it did not run; do not retry it in this session unless the user asks for it again"},
		{api.ClientMCP, ByCancel, "the user dismissed the confirmation for echo (or the request was cancelled), so it did not run"},
		{api.ClientCLI, ByUser, "the user declined echo, so it did not run; do not retry it, and do not ask again in this turn"},
		{api.ClientWeb, ByCancel, "the user cancelled the turn before answering, so echo did not run"},
	} {
		call := &Call{ClientType: tc.client, Confirm: func(context.Context, Confirmation) (Confirmed, error) {
			return Confirmed{By: tc.by}, nil
		}}
		o := r.Execute(context.Background(), call, "echo", `{"text":"x"}`)
		if o.Result.Success || o.Result.Error != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.client, tc.by, o.Result.Error, tc.want)
		}
		if tc.client == api.ClientMCP && strings.Contains(o.Result.Error, "turn") {
			t.Errorf("%s %s: %q speaks of a turn", tc.client, tc.by, o.Result.Error)
		}
	}
}

type verdictPolicy struct{ v Verdict }

func (p verdictPolicy) Decide(context.Context, *Call, Spec, json.RawMessage) Verdict { return p.v }

func TestOutputCappedForModelOnly(t *testing.T) {
	r := newRegistry(t, Config{MaxModelOutput: 4096})
	o := r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"big"}`)
	if !o.Result.Success || len(o.Result.Output) < 100000 {
		t.Fatalf("full output lost: %d bytes", len(o.Result.Output))
	}
	if !o.Truncated || len(o.ForModel) > 4096+64 || !utf8.ValidString(o.ForModel) {
		t.Fatalf("ForModel %d bytes, truncated %v", len(o.ForModel), o.Truncated)
	}
	var m struct {
		Output          string `json:"output"`
		OutputTruncated bool   `json:"output_truncated"`
	}
	if err := json.Unmarshal([]byte(o.ForModel), &m); err != nil || !m.OutputTruncated ||
		!strings.HasPrefix(m.Output, `{"data":"数据`) || !strings.HasSuffix(m.Output, `数据"}`) || !strings.Contains(m.Output, "truncated") {
		t.Fatalf("model view %.200q (%v)", o.ForModel, err)
	}
}

// TestLongErrorFitsForModel is issue 10's crash: an error longer than
// MaxModelOutput made the output budget negative and the slice panic. The
// model's view must fit MaxModelOutput whatever the error and output.
func TestLongErrorFitsForModel(t *testing.T) {
	for _, tc := range []struct {
		name string
		max  int
		text string
	}{
		{"17KB ascii", 0, "/" + strings.Repeat("a", 17000)},
		{"60KB ascii", 0, "/" + strings.Repeat("a", 60000)},
		{"60KB cjk", 0, strings.Repeat("执行", 10000)},
		{"escapes expand", 0, strings.Repeat("\x01\"", 8000)},
		{"error just over", 0, strings.Repeat("b", DefaultMaxModelOutput-150)},
		{"small cap", 1024, strings.Repeat("c", 5000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRegistry(t, Config{MaxModelOutput: tc.max})
			max := tc.max
			if max == 0 {
				max = DefaultMaxModelOutput
			}
			args, _ := json.Marshal(map[string]string{"text": tc.text, "mode": "longerr"})
			o := r.Execute(context.Background(), &Call{}, "echo", string(args))
			if o.Result.Success || !strings.Contains(o.Result.Error, tc.text) {
				t.Fatalf("full error lost: %.100q", o.Result.Error)
			}
			if !o.Truncated || len(o.ForModel) > max || !utf8.ValidString(o.ForModel) {
				t.Fatalf("ForModel %d bytes (max %d), truncated %v", len(o.ForModel), max, o.Truncated)
			}
			var m struct {
				Error           string `json:"error"`
				OutputTruncated bool   `json:"output_truncated"`
			}
			if err := json.Unmarshal([]byte(o.ForModel), &m); err != nil || !m.OutputTruncated ||
				!strings.HasPrefix(m.Error, "cannot read ") || !strings.Contains(m.Error, "truncated") {
				t.Fatalf("model view %.300q (%v)", o.ForModel, err)
			}
		})
	}
}

func TestHeadTailNeverPanics(t *testing.T) {
	for _, max := range []int{-100, -1, 0, 1, 2, 3} {
		got, cut := headTail(strings.Repeat("中", 10), max)
		if !cut || !utf8.ValidString(got) {
			t.Fatalf("max %d: %q", max, got)
		}
	}
}

func TestRegisterRejects(t *testing.T) {
	r := newRegistry(t, Config{})
	if err := r.Register(echo{}); err == nil {
		t.Fatal("duplicate accepted")
	}
	if err := r.Register(badSchema{}); err == nil {
		t.Fatal("bad schema accepted")
	}
	if got := r.Names(); len(got) != 1 || got[0] != "echo" || r.Specs()[0].Risk != RiskReadOnly {
		t.Fatal(got)
	}
}

type badSchema struct{ echo }

func (badSchema) Spec() Spec {
	return Spec{Name: "bad", Parameters: json.RawMessage(`{"type":"nonsense"}`)}
}

func TestHeadTail(t *testing.T) {
	s := strings.Repeat("a", 50) + strings.Repeat("中", 50)
	got, cut := headTail(s, 40)
	if !cut || !utf8.ValidString(got) || !strings.HasPrefix(got, "aaa") || !strings.HasSuffix(got, "中") {
		t.Fatalf("%q", got)
	}
	if got, cut := headTail("short", 40); cut || got != "short" {
		t.Fatal(got)
	}
}

func BenchmarkExecuteOverhead(b *testing.B) {
	r := NewRegistry(Config{})
	r.Register(echo{})
	call := &Call{}
	b.ReportAllocs()
	for b.Loop() {
		if o := r.Execute(context.Background(), call, "echo", `{"text":"hello","mode":"ok","n":3}`); !o.Result.Success {
			b.Fatal(o.Result.Error)
		}
	}
}

// observed records what the registry reports.
type observed struct{ calls []string }

func (o *observed) ToolCalled(tool, status string, d time.Duration) {
	o.calls = append(o.calls, tool+":"+status)
}

func TestObserverSeesEveryCall(t *testing.T) {
	// A read-only tool's timeout is retried: fake time.
	synctest.Test(t, func(t *testing.T) {
		obs := &observed{}
		r := newRegistry(t, Config{Observer: obs})
		r.Execute(context.Background(), &Call{}, "echo", `{"text":"x"}`)
		r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"fail"}`)
		r.Execute(context.Background(), &Call{}, "echo", `{"text":"x","mode":"hang"}`)
		r.Execute(context.Background(), &Call{}, "nope", `{}`)
		denied := newRegistry(t, Config{Observer: obs, Policy: policy{Deny, "no"}})
		denied.Execute(context.Background(), &Call{}, "echo", `{"text":"x"}`)
		want := []string{"echo:ok", "echo:error", "echo:timeout", "nope:error", "echo:denied"}
		if strings.Join(obs.calls, " ") != strings.Join(want, " ") {
			t.Fatalf("observed %v, want %v", obs.calls, want)
		}
	})
}

// TestAllowApprovedRunsApproved: an Allow verdict marked Approved (an
// operator's allow rule) runs the call as confirmed, without asking,
// and leaves the caller's Call unmarked; a plain Allow does not.
func TestAllowApprovedRunsApproved(t *testing.T) {
	for _, approved := range []bool{false, true} {
		r := newRegistry(t, Config{Policy: verdictPolicy{Verdict{Decision: Allow, Approved: approved}}})
		var seen bool
		if err := r.Register(approvedProbe{seen: &seen}); err != nil {
			t.Fatal(err)
		}
		call := &Call{}
		if o := r.Execute(context.Background(), call, "probe", `{}`); !o.Result.Success {
			t.Fatalf("%+v", o.Result)
		}
		if seen != approved || call.Approved {
			t.Fatalf("approved=%v: tool saw %v, caller's call %v", approved, seen, call.Approved)
		}
	}
}

// approvedProbe records whether its call was approved.
type approvedProbe struct{ seen *bool }

func (approvedProbe) Spec() Spec {
	return Spec{Name: "probe", Parameters: json.RawMessage(`{"type":"object"}`), Risk: RiskReadOnly}
}

func (p approvedProbe) Run(_ context.Context, call *Call, _ json.RawMessage) (any, error) {
	*p.seen = call.Approved
	return "ok", nil
}

// TestValidationTextReadable: schema violations reach the model (and the
// audit log) as words, not Go values such as "&{[command]}".
func TestValidationTextReadable(t *testing.T) {
	r := newRegistry(t, Config{})
	for args, want := range map[string]string{
		`{}`:          "missing property",
		`{"text": 5}`: "want string",
		`[]`:          "want object",
	} {
		o := r.Execute(context.Background(), &Call{}, "echo", args)
		if !strings.Contains(o.Result.Error, want) || strings.Contains(o.Result.Error, "&{") {
			t.Errorf("%s: %q, want %q in words", args, o.Result.Error, want)
		}
	}
}

// refTool is a tool whose parameters schema is given.
type refTool struct{ schema string }

func (r refTool) Spec() Spec {
	return Spec{Name: "ref", Parameters: json.RawMessage(r.schema), Source: "srv"}
}

func (refTool) Run(context.Context, *Call, json.RawMessage) (any, error) { return "ran", nil }

// TestSchemaRefsStayInside: a schema's $ref to a local file (a secret, or
// a FIFO that would block forever) or a URL is refused at registration;
// references within the schema work.
func TestSchemaRefsStayInside(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(secret, []byte(`{"const":"db-password-hunter2"}`), 0o600)
	for _, ref := range []string{"file://" + secret, "https://example.com/s.json", secret} {
		r := NewRegistry(Config{})
		err := r.Register(refTool{`{"type":"object","properties":{"q":{"$ref":"` + ref + `"}}}`})
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("$ref %s: %v", ref, err)
		}
	}
	// The standard drafts ($schema) are built in, not loaded.
	for _, draft := range []string{"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"} {
		if err := NewRegistry(Config{}).Register(refTool{`{"$schema":"` + draft + `","type":"object"}`}); err != nil {
			t.Errorf("$schema %s: %v", draft, err)
		}
	}
	r := NewRegistry(Config{})
	if err := r.Register(refTool{`{"type":"object","properties":{"q":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"string"}}}`}); err != nil {
		t.Fatalf("internal $ref: %v", err)
	}
	if o := r.Execute(context.Background(), &Call{}, "ref", `{"q":5}`); o.Result.Success {
		t.Fatalf("internal $ref not applied: %+v", o.Result)
	}
}
