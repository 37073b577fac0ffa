package web

import (
	"net/http"

	"opsassist/api"
	"opsassist/tools/toolcall"
)

// ToolCatalog lists the registered tools and the configured MCP servers
// for GET /api/tools (toolcall.Catalog, which NPLT's TOOL_LIST shares).
type ToolCatalog = toolcall.Catalog

// handleTools answers GET /api/tools with an api.Catalog: the same list
// for every authenticated caller (a role's policy decides calls, not
// what is listed); 404 when the server has no catalog.
func (s *Server) handleTools(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Catalog == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "tool catalog not configured"))
		return
	}
	writeJSON(w, http.StatusOK, toolcall.List(s.cfg.Catalog))
}
