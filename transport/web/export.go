package web

import (
	"net/http"

	"opsassist/api"
	"opsassist/chat"
)

// handleExport downloads a conversation: GET
// /api/sessions/{id}/export?format=md|json (default md), the bytes
// chat.Export makes (NPLT SESSION_EXPORT sends the same): md is the
// Markdown transcript, json the stored messages and uploads with the
// conversation's summary. An export over chat.MaxExport is 413
// too_large.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = chat.ExportMarkdown
	}
	if format != chat.ExportMarkdown && format != chat.ExportJSON {
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
	b, err := chat.Export(sum, msgs, ups, format)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	name := "opsassist-" + sum.ID[:min(8, len(sum.ID))] + "." + format
	h := w.Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	if format == chat.ExportJSON {
		h.Set("Content-Type", "application/json; charset=utf-8")
	} else {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}
