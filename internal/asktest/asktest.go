// Package asktest is the transports' test agent for permission
// requests: a tool whose calls a test Policy puts at Ask, and a planner
// that calls it and then tells what the tool results said, so a test
// sees what the model was told.
package asktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
	"opsassist/tools/askuser"
)

// Tool is the tool "probe" {"unit": string}; it records the units it ran
// for.
type Tool struct {
	mu   sync.Mutex
	runs []string
}

var _ tools.Tool = (*Tool)(nil)

// Spec describes the tool.
func (*Tool) Spec() tools.Spec {
	return tools.Spec{Name: "probe", Description: "probes a unit", Risk: tools.RiskSensitive,
		Parameters: json.RawMessage(`{"type":"object","properties":{"unit":{"type":"string"}},"required":["unit"]}`)}
}

// Run records the unit.
func (p *Tool) Run(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	var a struct{ Unit string }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.runs = append(p.runs, a.Unit)
	p.mu.Unlock()
	return map[string]string{"ran": a.Unit}, nil
}

// Runs returns the units run so far.
func (p *Tool) Runs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.runs...)
}

// Policy puts every probe call at Ask, scoped to "probe:<unit>", and
// allows the rest.
type Policy struct{}

// Decide asks about probe calls.
func (Policy) Decide(_ context.Context, _ *tools.Call, spec tools.Spec, args json.RawMessage) tools.Verdict {
	if spec.Name != "probe" {
		return tools.Verdict{Decision: tools.Allow}
	}
	var a struct{ Unit string }
	json.Unmarshal(args, &a)
	why := api.Text{Zh: ReasonZh, En: ReasonEn}
	return tools.Verdict{Decision: tools.Ask, Reason: why.Both(), ReasonText: why, Scope: "probe:" + a.Unit}
}

// ReasonZh and ReasonEn are why Policy asks, in each language, as a
// real Policy gives it: the request's reason is both at once
// (api.Text.Both), reason_zh and reason_en each alone.
const (
	ReasonZh = "探测需要你的批准。"
	ReasonEn = "probing needs your approval"
)

// Planner answers "probe A B…" by calling probe for each unit at once
// (ids "call-A"…), then says "results:" and each tool message's content;
// "repeat N A" calls probe for unit A once a step, N times (ids
// "call-A-1"…), as a model stuck in a loop would, then says the same;
// "ask <JSON>" calls ask_user with those arguments (id "call-ask") and
// then says the same; anything else it answers "ok".
type Planner struct{}

// Plan plans one step.
func (Planner) Plan(_ context.Context, req *agent.PlanRequest, delta func(string) error) (*agent.Step, error) {
	last := req.Messages[len(req.Messages)-1]
	if rest, ok := strings.CutPrefix(req.Turn.Input, "repeat "); ok && len(req.Tools) > 0 {
		var n int
		var unit string
		fmt.Sscanf(rest, "%d %s", &n, &unit)
		done := 0 // this turn's tool messages: after the last user message
		for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role != "user"; i-- {
			if req.Messages[i].Role == "tool" {
				done++
			}
		}
		if done < n {
			args, _ := json.Marshal(map[string]string{"unit": unit})
			return &agent.Step{ToolCalls: []history.ToolCall{{ID: fmt.Sprintf("call-%s-%d", unit, done+1), Name: "probe", Arguments: string(args)}}}, nil
		}
	}
	if last.Role == "tool" {
		var b strings.Builder
		b.WriteString("results:")
		for _, m := range req.Messages {
			if m.Role == "tool" {
				fmt.Fprintf(&b, "\n%s %s", m.ToolCallID, m.Content)
			}
		}
		return &agent.Step{Content: b.String()}, delta(b.String())
	}
	if q, ok := strings.CutPrefix(req.Turn.Input, "ask "); ok && len(req.Tools) > 0 {
		return &agent.Step{ToolCalls: []history.ToolCall{{ID: "call-ask", Name: askuser.Name, Arguments: q}}}, nil
	}
	units, ok := strings.CutPrefix(req.Turn.Input, "probe ")
	if !ok || len(req.Tools) == 0 {
		return &agent.Step{Content: "ok"}, delta("ok")
	}
	var st agent.Step
	for _, u := range strings.Fields(units) {
		args, _ := json.Marshal(map[string]string{"unit": u})
		st.ToolCalls = append(st.ToolCalls, history.ToolCall{ID: "call-" + u, Name: "probe", Arguments: string(args)})
	}
	return &st, nil
}

// NewAgent returns the agent with the probe tool behind Policy, and
// ask_user.
func NewAgent() (chat.Agent, *Tool, error) {
	reg := tools.NewRegistry(tools.Config{Policy: Policy{}})
	probe := &Tool{}
	if err := reg.Register(probe); err != nil {
		return nil, nil, err
	}
	if err := reg.Register(askuser.Tool{}); err != nil {
		return nil, nil, err
	}
	a, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": Planner{}}, Tools: reg})
	if err != nil {
		return nil, nil, err
	}
	return a, probe, nil
}
