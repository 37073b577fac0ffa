package web

import (
	"net/http"
)

// ask_user questions over HTTP: the chat stream carries the question as
// a "question" SSE event (eventData); the answer is its own request,
// handled while the stream waits, like a permission answer.

// handleAnswerQuestion answers a question of the session:
// POST /api/sessions/{id}/questions/{request_id} {"answer"}.
func (s *Server) handleAnswerQuestion(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Answer string `json:"answer"`
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
	if err := se.AnswerQuestion(id, req.Answer); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"request_id": id, "answer": req.Answer})
}
