package web

import (
	"net/http"
)

// handlePending lists what the conversation's running turn waits for the
// caller to answer: GET /api/sessions/{id}/pending →
// {"permissions": [...], "questions": [...]}, each item with the fields
// of its permission_request or question event. A reloaded page shows
// them again and answers them as usual. Owner-only: another principal's
// conversation is 404, like an unknown one.
func (s *Server) handlePending(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, se.Pending())
}
