package web

import (
	"net/http"

	"go.uber.org/zap"
)

// handleCancel stops the turn running in a conversation (POST
// /api/sessions/{id}/cancel, the session id or a unique prefix, the body
// empty or a JSON object). It answers 200 {"cancelled": true} when a turn was
// running — its SSE stream then ends with "end", the partial answer is
// recorded as cancelled — and 200 {"cancelled": false} when none was,
// which is harmless. A conversation the caller does not own, or that
// does not exist, is 404 not_found.
func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if err := s.decodeJSON(w, r, &body, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	se, err := s.session(r) // only the caller's own conversations
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ok := se.Cancel()
	if ok {
		s.log.Debug("turn cancelled by the client", zap.String("session", se.ID()))
	}
	writeJSON(w, http.StatusOK, map[string]bool{"cancelled": ok})
}
