package web

import (
	"net/http"

	"opsassist/chat"
)

// Permission requests over HTTP: the chat stream carries the request as
// a "permission_request" SSE event (eventData); the answer is its own
// request, handled while the stream waits.

// handleAnswerPermission answers a permission request of the session:
// POST /api/sessions/{id}/permissions/{request_id} {"decision"}.
func (s *Server) handleAnswerPermission(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Decision string `json:"decision"`
	}
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("request_id")
	if err := se.AnswerPermission(id, req.Decision); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"request_id": id, "decision": req.Decision})
}

// handleListGrants lists the session's allow_session grants:
// GET /api/sessions/{id}/permissions.
func (s *Server) handleListGrants(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session_id": se.ID(), "grants": nonNilGrants(se.Grants())})
}

// handleRevokeGrant revokes one: DELETE /api/sessions/{id}/permissions/{grant}.
func (s *Server) handleRevokeGrant(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := se.RevokeGrant(r.PathValue("grant"))
	if err != nil {
		s.writeError(w, r, err) // chat.Error not_found: 404
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"revoked": g, "grants": nonNilGrants(se.Grants())})
}

func nonNilGrants(gs []chat.Grant) []chat.Grant {
	if gs == nil {
		return []chat.Grant{}
	}
	return gs
}
