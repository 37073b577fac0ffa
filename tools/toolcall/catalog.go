package toolcall

import "opsassist/api"

// Catalog lists the registered tools and the configured MCP servers (the
// daemon builds it from the tool registry and the MCP manager).
type Catalog interface {
	// Tools returns every registered tool, the ones not offered to the
	// model with Available false.
	Tools() []api.ToolInfo
	// Servers returns every configured MCP server's state.
	Servers() []api.MCPServerInfo
}

// List returns c's api.Catalog, with empty (never nil) slices so the JSON
// holds [] rather than null. The list is the same for every caller: a
// role's policy decides calls, not what is listed.
func List(c Catalog) api.Catalog {
	out := api.Catalog{Tools: c.Tools(), Servers: c.Servers()}
	if out.Tools == nil {
		out.Tools = []api.ToolInfo{}
	}
	if out.Servers == nil {
		out.Servers = []api.MCPServerInfo{}
	}
	return out
}
