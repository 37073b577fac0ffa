package web

import (
	"errors"
	"fmt"
	"net/http"

	"opsassist/api"
	"opsassist/storage/history"
)

// maxBulkDelete bounds the ids one POST /api/sessions/delete names.
const maxBulkDelete = 100

// handleBulkDelete deletes several conversations: {"ids": [...]}. Each
// id is deleted as DELETE /api/sessions/{id} would; ids that name no
// conversation the principal sees are listed in not_found, so a replay
// is harmless. The first other failure ends the request (500), with the
// ids before it deleted.
func (s *Server) handleBulkDelete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		IDs []string `json:"ids"`
	}
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case len(req.IDs) == 0:
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, `request body needs "ids": a non-empty list of conversation ids`))
		return
	case len(req.IDs) > maxBulkDelete:
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("at most %d ids per request", maxBulkDelete)))
		return
	}
	who := s.principal(r)
	deleted := []history.Summary{}
	notFound := []string{}
	for _, id := range req.IDs {
		sum, err := s.deleteSession(who, id)
		switch {
		case err == nil:
			deleted = append(deleted, sum)
		case errors.Is(err, history.ErrNotFound), errors.Is(err, history.ErrAmbiguous):
			notFound = append(notFound, id)
		default:
			s.writeError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": deleted, "not_found": notFound})
}
