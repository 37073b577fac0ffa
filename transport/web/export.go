package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"opsassist/api"
	"opsassist/chat"
)

// handleExport downloads a conversation: GET
// /api/sessions/{id}/export?format=md|json (default md), the bytes
// chat.Export makes (NPLT SESSION_EXPORT sends the same): md is the
// Markdown transcript, json the stored messages and uploads with the
// conversation's summary. chat.Session.ExportTo checks the format (400
// bad_request), the size (413 too_large, over chat.MaxExport) and the
// export budget (503 server_busy), in the conversation's language.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	err = se.ExportTo(se.ID(), r.URL.Query().Get("format"), func(e chat.Exported) error {
		name := "opsassist-" + e.Summary.ID[:min(8, len(e.Summary.ID))] + "." + e.Format
		h := w.Header()
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		if e.Format == chat.ExportJSON {
			h.Set("Content-Type", "application/json; charset=utf-8")
		} else {
			h.Set("Content-Type", "text/markdown; charset=utf-8")
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Length", strconv.Itoa(len(e.Data)))
		w.WriteHeader(http.StatusOK)
		// Each chunk may block at most StallTimeout, and the whole export
		// may take chat.ExportSendTime (as over NPLT): a client that stops
		// reading, or reads a byte a second, does not hold the export
		// budget for long.
		sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), stall: s.cfg.StallTimeout,
			end: time.Now().Add(chat.ExportSendTime(len(e.Data)))}
		_, err := io.Copy(sw, bytes.NewReader(e.Data))
		return err
	})
	if err != nil {
		var ce *chat.Error
		if errors.As(err, &ce) {
			if ce.Code == api.CodeServerBusy {
				w.Header().Set("Retry-After", "1")
			}
			s.writeError(w, r, err)
		}
		// else: the client went away mid-download; nothing to answer
	}
}
