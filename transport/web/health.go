package web

import (
	"encoding/json"
	"net/http"

	"opsassist/api"
	"opsassist/tools"
)

// handleHealth reports the server's state.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"status":     "ok",
		"version":    s.cfg.Version,
		"uptime_s":   int64(s.cfg.Now().Sub(s.started).Seconds()),
		"components": s.cfg.Components(),
	})
}

// handleSystem returns a sys_monitor report for the live panel.
func (s *Server) handleSystem(w http.ResponseWriter, r *http.Request) {
	if s.cfg.System == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "system monitor not configured"))
		return
	}
	out, err := s.cfg.System.Run(r.Context(), &tools.Call{ClientType: api.ClientWeb}, json.RawMessage(`{"metric":"all"}`))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleModels lists the selectable models: names in "models" (as old
// clients read them) and provider, model id, base URL and cached
// reachability in "details".
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"models": s.cfg.Chat.Models(), "default": s.cfg.Chat.DefaultModel(),
		"details": s.cfg.Chat.ModelDetails()})
}
