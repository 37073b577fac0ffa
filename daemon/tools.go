package daemon

import (
	"opsassist/api"
	"opsassist/tools"
	"opsassist/tools/mcp"
)

// toolCatalog is toolcall.Catalog (HTTP's GET /api/tools, NPLT's
// TOOL_LIST) over the tool registry and the MCP servers' states.
type toolCatalog struct {
	reg    *tools.Registry
	status func() []mcp.ServerStatus
}

// Tools lists every registered tool in registration order; the ones the
// registry does not offer the model (past limits.max_tools) have
// Available false.
func (c toolCatalog) Tools() []api.ToolInfo {
	_, left := c.reg.Offered()
	notOffered := make(map[string]bool, len(left))
	for _, n := range left {
		notOffered[n] = true
	}
	specs := c.reg.Specs()
	out := make([]api.ToolInfo, 0, len(specs))
	for _, s := range specs {
		src := api.SourceBuiltin
		if s.Source != "" && s.Source != tools.SourceBuiltin {
			src = api.SourceMCPPrefix + s.Source
		}
		out = append(out, api.ToolInfo{Name: s.Name, Description: s.Description, SummaryZh: s.Summary.Zh, SummaryEn: s.Summary.En, Source: src, Risk: string(s.Risk),
			Parameters: s.Parameters, Available: !notOffered[s.Name]})
	}
	return out
}

// Servers lists every configured MCP server's state, in configuration
// order.
func (c toolCatalog) Servers() []api.MCPServerInfo {
	st := c.status()
	out := make([]api.MCPServerInfo, len(st))
	for i, s := range st {
		out[i] = api.MCPServerInfo{Name: s.Name, State: s.State, Reason: s.Reason, Restarts: s.Restarts, Tools: s.Tools}
	}
	return out
}
