package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// scriptPlanner returns its steps in order and records what it was given.
type scriptPlanner struct {
	steps []Step
	reqs  []*PlanRequest
}

func (p *scriptPlanner) Plan(ctx context.Context, req *PlanRequest, delta func(string) error) (*Step, error) {
	p.reqs = append(p.reqs, req)
	if len(p.steps) == 0 {
		return nil, errors.New("script exhausted")
	}
	st := p.steps[0]
	p.steps = p.steps[1:]
	if st.Content != "" {
		if err := delta(st.Content); err != nil {
			return nil, err
		}
	}
	return &st, nil
}

// upper is a tool that upper-cases its text.
type upper struct{}

func (upper) Spec() tools.Spec {
	return tools.Spec{Name: "upper", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func (upper) Run(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	var a struct{ Text string }
	json.Unmarshal(args, &a)
	return map[string]string{"text": strings.ToUpper(a.Text)}, nil
}

func newAgent(t *testing.T, p Planner, maxSteps int) *Agent {
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(upper{}); err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg, MaxSteps: maxSteps})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func call(id, name, args string) history.ToolCall {
	return history.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestChainAndParallelCalls(t *testing.T) {
	p := &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{call("c1", "upper", `{"text":"a"}`)}},
		{Content: "checking two things", ToolCalls: []history.ToolCall{call("c2", "upper", `{"text":"b"}`), call("c3", "upper", `{"text":"c"}`)}},
		{Content: "A, B and C"},
	}}
	a := newAgent(t, p, 0)
	r := &testkit.Recorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "go", Model: "builtin"}, r)
	if err != nil {
		t.Fatal(err)
	}
	// assistant(c1), tool(c1), assistant(c2,c3), tool(c2), tool(c3), assistant(final)
	roles := ""
	for _, m := range msgs {
		roles += m.Role[:1]
	}
	if roles != "atatta" {
		t.Fatalf("roles %q", roles)
	}
	if msgs[3].ToolCallID != "c2" || msgs[4].ToolCallID != "c3" || !strings.Contains(msgs[4].Content, `"text":"C"`) {
		t.Fatalf("tool results %+v %+v", msgs[3], msgs[4])
	}
	// The planner saw the user message and every result.
	last := p.reqs[2].Messages
	if last[0].Content != "go" || len(last) != 6 || len(p.reqs[2].Tools) != 1 {
		t.Fatalf("last request: %d messages, %d tools", len(last), len(p.reqs[2].Tools))
	}
	if got := strings.Join(r.Events, " "); !strings.Contains(got, "status:tool_call status:tool_result") || !strings.HasSuffix(got, "delta:A, B and C") {
		t.Fatalf("events %s", got)
	}
}

func TestBadCallsFedBackAndRecovered(t *testing.T) {
	p := &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{call("c1", "upper", `{"text":`), call("c2", "nope", `{}`)}},
		{Content: "recovered"},
	}}
	msgs, err := newAgent(t, p, 0).Respond(context.Background(), &chat.Turn{Input: "x"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msgs[1].Content, "not valid JSON") || !strings.Contains(msgs[2].Content, `unknown tool \"nope\"`) || msgs[3].Content != "recovered" {
		t.Fatalf("%+v", msgs)
	}
}

func TestStepLimit(t *testing.T) {
	loop := Step{ToolCalls: []history.ToolCall{call("c", "upper", `{"text":"again"}`)}}
	p := &scriptPlanner{steps: []Step{loop, loop, loop}}
	msgs, err := newAgent(t, p, 3).Respond(context.Background(), &chat.Turn{Input: "CPU?"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.reqs) != 3 || len(p.reqs[2].Tools) != 0 {
		t.Fatalf("%d requests, last offered %d tools", len(p.reqs), len(p.reqs[2].Tools))
	}
	last := msgs[len(msgs)-1]
	if last.Role != "assistant" || len(last.ToolCalls) != 0 || !strings.Contains(last.Content, "step limit") {
		t.Fatalf("last %+v", last)
	}
}

func TestPlannerErrorEndsTurn(t *testing.T) {
	p := &scriptPlanner{}
	if _, err := newAgent(t, p, 0).Respond(context.Background(), &chat.Turn{Input: "x"}, &testkit.Recorder{}); err == nil {
		t.Fatal("no error")
	}
}

// big is a tool with more output than the model may see.
type big struct{}

func (big) Spec() tools.Spec {
	return tools.Spec{Name: "big", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (big) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	return strings.Repeat("x", 40000), nil
}

func TestFullOutputKeptWhenModelViewIsCut(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	reg.Register(big{})
	p := &scriptPlanner{steps: []Step{{ToolCalls: []history.ToolCall{call("c1", "big", `{}`)}}, {Content: "ok"}}}
	a, _ := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg})
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	tm := msgs[1]
	if len(tm.Content) > tools.DefaultMaxModelOutput+64 || len(tm.Full) < 40000 {
		t.Fatalf("model view %d bytes, full %d bytes", len(tm.Content), len(tm.Full))
	}
}

// TestCallsPerStepLimit: calls over MaxCallsPerStep in one step are not
// run; each still gets a tool result saying so.
func TestCallsPerStepLimit(t *testing.T) {
	var calls []history.ToolCall
	for i := range DefaultMaxCallsPerStep + 3 {
		calls = append(calls, call(string(rune('a'+i)), "upper", fmt.Sprintf(`{"text":"x%d"}`, i))) // distinct: no loop
	}
	p := &scriptPlanner{steps: []Step{{ToolCalls: calls}, {Content: "done"}}}
	r := &testkit.Recorder{}
	msgs, err := newAgent(t, p, 0).Respond(context.Background(), &chat.Turn{Input: "x"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1+len(calls)+1 {
		t.Fatalf("%d messages", len(msgs))
	}
	for i, tc := range calls {
		m := msgs[1+i]
		over := i >= DefaultMaxCallsPerStep
		if m.Role != "tool" || m.ToolCallID != tc.ID || strings.Contains(m.Content, "not run: at most 8 tool calls per step") != over {
			t.Errorf("result %d: %+v", i, m)
		}
	}
	if n := strings.Count(strings.Join(r.Events, " "), "status:tool_call"); n != DefaultMaxCallsPerStep {
		t.Errorf("%d calls started", n)
	}
}

// whoami is a tool that returns who its call runs for.
type whoami struct{}

func (whoami) Spec() tools.Spec {
	return tools.Spec{Name: "whoami", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (whoami) Run(_ context.Context, c *tools.Call, _ json.RawMessage) (any, error) {
	return map[string]string{"user": c.User, "role": c.Role, "session": c.SessionID, "client": c.ClientType}, nil
}

// TestCallsRunForTheTurnsUser: the turn's user and role reach every tool
// call, which the policy decides and the audit log records by.
func TestCallsRunForTheTurnsUser(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(whoami{}); err != nil {
		t.Fatal(err)
	}
	p := &scriptPlanner{steps: []Step{{ToolCalls: []history.ToolCall{{ID: "c1", Name: "whoami", Arguments: "{}"}}}, {Content: "ok"}}}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := a.Respond(context.Background(), &chat.Turn{SessionID: "s1", Input: "who", ClientType: "web", User: "bob", Role: "viewer"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"client":"web","role":"viewer","session":"s1","user":"bob"}`
	if len(msgs) < 2 || !strings.Contains(msgs[1].Content, want) {
		t.Fatalf("tool message %+v, want output %s", msgs, want)
	}
}

// auditRecords keeps the tool calls' audit records.
type auditRecords struct {
	mu   sync.Mutex
	recs []tools.CallRecord
}

func (a *auditRecords) Record(r tools.CallRecord) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, r)
	return nil
}

// byID returns the records by tool call id, failing on a call recorded
// twice.
func (a *auditRecords) byID(t *testing.T) map[string]tools.CallRecord {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	m := make(map[string]tools.CallRecord)
	for _, r := range a.recs {
		if _, dup := m[r.ToolCallID]; dup {
			t.Fatalf("call %s recorded twice", r.ToolCallID)
		}
		m[r.ToolCallID] = r
	}
	return m
}

// TestUnrunCallsAudited: the calls over MaxCallsPerStep and those a
// planner returns on the last step are never run, but each is audited
// once, refused by the step limit, with the turn's user and role; the
// skipped calls' tool messages say why, and the last step's calls stay
// out of the history.
func TestUnrunCallsAudited(t *testing.T) {
	var calls []history.ToolCall
	for i := range DefaultMaxCallsPerStep + 2 {
		calls = append(calls, call(fmt.Sprintf("s1-%d", i), "upper", fmt.Sprintf(`{"text":"x%d"}`, i)))
	}
	last := []history.ToolCall{call("s2-0", "upper", `{"text":"late"}`), call("s2-1", "nope", `{"token":"sk-abcdefghijklmnopqrstuvwxyz012345"}`)}
	p := &scriptPlanner{steps: []Step{{ToolCalls: calls}, {Content: "that is all", ToolCalls: last}}}
	rec := &auditRecords{}
	reg := tools.NewRegistry(tools.Config{Audit: rec})
	if err := reg.Register(upper{}); err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg, MaxSteps: 2})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x", User: "alice", Role: "operator", SessionID: "s"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(msgs); n != 1+len(calls)+1 || len(msgs[n-1].ToolCalls) != 0 || msgs[n-1].Content != "that is all" {
		t.Fatalf("%d messages, last %+v", n, msgs[len(msgs)-1])
	}
	got := rec.byID(t)
	if len(got) != len(calls)+len(last) {
		t.Fatalf("%d calls recorded, want %d: %+v", len(got), len(calls)+len(last), got)
	}
	for i, tc := range append(calls, last...) {
		r := got[tc.ID]
		if r.User != "alice" || r.Role != "operator" || r.Session != "s" || r.Tool != tc.Name {
			t.Errorf("%s: identity %+v", tc.ID, r)
		}
		switch {
		case i < DefaultMaxCallsPerStep:
			if r.Status != tools.StatusOK || r.Attempts != 1 {
				t.Errorf("%s: %+v", tc.ID, r)
			}
		case i < len(calls):
			if r.Status != tools.StatusDenied || r.DecidedBy != tools.DecidedByStepLimit || r.Decision != "" || r.Attempts != 0 ||
				!strings.Contains(r.Error, "at most 8 tool calls per step") {
				t.Errorf("%s: %+v", tc.ID, r)
			}
		default:
			if r.Status != tools.StatusDenied || r.DecidedBy != tools.DecidedByStepLimit || r.Attempts != 0 || !strings.Contains(r.Error, "last step") {
				t.Errorf("%s: %+v", tc.ID, r)
			}
		}
	}
	if args := string(got["s2-1"].Args); args != `{"token":"***"}` {
		t.Errorf("last step's arguments recorded as %s", args)
	}
}
