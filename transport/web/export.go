package web

import (
	"net/http"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// handleExport downloads a conversation: GET
// /api/sessions/{id}/export?format=md|json (default md). md is the
// Markdown transcript (chat.Transcript); json is the stored messages and
// uploads with the conversation's summary.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "md"
	}
	if format != "md" && format != "json" {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, `format must be "md" or "json"`))
		return
	}
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sum := se.Summary()
	msgs, ups := se.History()
	name := "opsassist-" + sum.ID[:min(8, len(sum.ID))] + "." + format
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	if format == "json" {
		if msgs == nil {
			msgs = []history.Message{}
		}
		writeJSON(w, http.StatusOK, map[string]any{"session": sum, "messages": msgs, "uploads": fileViews(ups)})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/markdown; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(chat.Transcript(sum, msgs, ups)))
}
