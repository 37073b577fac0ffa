package agent

import (
	"context"
	"encoding/json"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// remote is a tool of an MCP server named by its name.
type remote string

func (r remote) Spec() tools.Spec {
	return tools.Spec{Name: string(r), Source: "srv", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (remote) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	return map[string]string{"ran": "yes"}, nil
}

// TestPlannerIsOfferedTheCappedTools: the planner gets the registry's
// Offered tools (built-in first, capped), and a tool left out still runs
// when the model names it.
func TestPlannerIsOfferedTheCappedTools(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{MaxOffered: 2})
	if err := reg.Register(upper{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceSource("srv", []tools.Tool{remote("mcp__srv__b"), remote("mcp__srv__a"), remote("mcp__srv__c")}); err != nil {
		t.Fatal(err)
	}
	p := &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{call("c1", "mcp__srv__c", `{}`)}},
		{Content: "done"},
	}}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "go", Model: "builtin"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	var offered []string
	for _, s := range p.reqs[0].Tools {
		offered = append(offered, s.Name)
	}
	if len(offered) != 2 || offered[0] != "upper" || offered[1] != "mcp__srv__a" {
		t.Fatalf("offered %v", offered)
	}
	var ran bool
	for _, m := range msgs {
		if m.Role == "tool" && m.ToolCallID == "c1" && json.Valid([]byte(m.Content)) {
			var o struct{ Success bool }
			json.Unmarshal([]byte(m.Content), &o)
			ran = o.Success
		}
	}
	if !ran {
		t.Fatalf("the left-out tool did not run: %+v", msgs)
	}
}
