package web

import (
	"net/http"

	"opsassist/api"
)

// ToolCatalog lists the registered tools and the configured MCP servers
// for GET /api/tools (the daemon builds it from the tool registry and
// the MCP manager).
type ToolCatalog interface {
	// Tools returns every registered tool, the ones not offered to the
	// model with Available false.
	Tools() []api.ToolInfo
	// Servers returns every configured MCP server's state.
	Servers() []api.MCPServerInfo
}

// handleTools answers GET /api/tools with an api.Catalog: the same list
// for every authenticated caller (a role's policy decides calls, not
// what is listed); 404 when the server has no catalog.
func (s *Server) handleTools(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Catalog == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "tool catalog not configured"))
		return
	}
	c := api.Catalog{Tools: s.cfg.Catalog.Tools(), Servers: s.cfg.Catalog.Servers()}
	if c.Tools == nil {
		c.Tools = []api.ToolInfo{}
	}
	if c.Servers == nil {
		c.Servers = []api.MCPServerInfo{}
	}
	writeJSON(w, http.StatusOK, c)
}
