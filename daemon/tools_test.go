package daemon

import (
	"context"
	"encoding/json"
	"testing"

	"opsassist/api"
	"opsassist/tools"
	"opsassist/tools/mcp"
)

// catTool is a tool of a given source for the catalog tests.
type catTool struct{ name, source string }

func (c catTool) Spec() tools.Spec {
	return tools.Spec{Name: c.name, Source: c.source, Description: "does " + c.name, Summary: api.Text{Zh: "做 " + c.name, En: "does " + c.name},
		Risk: tools.RiskSensitive, Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (catTool) Run(context.Context, *tools.Call, json.RawMessage) (any, error) { return "ok", nil }

// TestToolCatalog: every registered tool is listed with its source
// ("builtin", "mcp:<server>"); the ones past the offered cap are listed
// with available false; every configured server is listed, one with no
// tools too.
func TestToolCatalog(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{MaxOffered: 2})
	if err := reg.Register(catTool{"sys_monitor", ""}); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceSource("fs", []tools.Tool{catTool{"mcp__fs__b", "fs"}, catTool{"mcp__fs__a", "fs"}}); err != nil {
		t.Fatal(err)
	}
	c := toolCatalog{reg: reg, status: func() []mcp.ServerStatus {
		return []mcp.ServerStatus{{Name: "fs", State: mcp.StateReady, Tools: 2}, {Name: "dead", State: mcp.StateUnavailable, Reason: "no such file", Restarts: 3}}
	}}
	got := map[string]api.ToolInfo{}
	for _, ti := range c.Tools() {
		got[ti.Name] = ti
	}
	if len(got) != 3 {
		t.Fatalf("tools %v", got)
	}
	if s := got["sys_monitor"]; s.Source != "builtin" || !s.Available || s.Risk != "sensitive" || s.Description != "does sys_monitor" || s.SummaryZh != "做 sys_monitor" || s.SummaryEn != "does sys_monitor" || string(s.Parameters) != `{"type":"object"}` {
		t.Fatalf("sys_monitor %+v", s)
	}
	// Offered: the built-in tools, then by source and name: mcp__fs__a in, mcp__fs__b left out.
	if a, b := got["mcp__fs__a"], got["mcp__fs__b"]; a.Source != "mcp:fs" || !a.Available || b.Source != "mcp:fs" || b.Available {
		t.Fatalf("mcp tools %+v %+v", a, b)
	}
	want := []api.MCPServerInfo{{Name: "fs", State: "ready", Tools: 2}, {Name: "dead", State: "unavailable", Reason: "no such file", Restarts: 3}}
	srv := c.Servers()
	if len(srv) != len(want) || srv[0] != want[0] || srv[1] != want[1] {
		t.Fatalf("servers %+v", srv)
	}
}
