package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"opsassist/api"
	"opsassist/chat"
)

// AuditLog is the audit log GET /api/audit reads (tools/audit.Log
// implements it).
type AuditLog interface {
	// Query returns the records at or after since (zero: all) of user
	// and tool ("" matches any), oldest first, at most limit, each
	// record's JSON as stored.
	Query(ctx context.Context, since time.Time, user, tool string, limit int) ([]json.RawMessage, error)
}

// Limits of GET /api/audit's parameters.
const (
	// DefaultAuditLimit is the most records answered without limit=.
	DefaultAuditLimit = 1000
	// MaxAuditLimit is the most records one request gets; a larger
	// limit= counts as this.
	MaxAuditLimit = 1000
	// maxAuditParam bounds the user= and tool= values.
	maxAuditParam = 256
)

// auditQuery is a parsed GET /api/audit query.
type auditQuery struct {
	since      time.Time
	user, tool string
	limit      int
}

// handleAudit answers GET /api/audit?since=&user=&tool=&limit= with
// {"records": [...]}, the audit records oldest first: for admins only
// (chat.Principal.Admin; the local operator is one), 404 when the
// server keeps no audit log.
func (s *Server) handleAudit(w http.ResponseWriter, r *http.Request) {
	if !s.principal(r).Admin {
		s.writeError(w, r, errorf(http.StatusForbidden, api.CodeForbidden, "the audit log is for admins only"))
		return
	}
	if s.cfg.Audit == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "audit log not enabled"))
		return
	}
	q, err := parseAuditQuery(r.URL.RawQuery, s.cfg.Now())
	if err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, chat.Message(err)))
		return
	}
	recs, err := s.cfg.Audit.Query(r.Context(), q.since, q.user, q.tool, q.limit)
	if err != nil {
		s.writeError(w, r, fmt.Errorf("reading the audit log: %w", err))
		return
	}
	if recs == nil {
		recs = []json.RawMessage{}
	}
	writeJSON(w, http.StatusOK, map[string][]json.RawMessage{"records": recs})
}

// parseAuditQuery reads GET /api/audit's query; each error names the
// parameter.
func parseAuditQuery(raw string, now time.Time) (auditQuery, error) {
	q := auditQuery{limit: DefaultAuditLimit}
	v, err := url.ParseQuery(raw)
	if err != nil {
		return q, fmt.Errorf("bad query string: %w", err)
	}
	for _, k := range []string{"since", "user", "tool", "limit"} {
		if len(v[k]) > 1 {
			return q, fmt.Errorf("%s: given more than once", k)
		}
	}
	if s := v.Get("since"); s != "" {
		if q.since, err = parseSince(s, now); err != nil {
			return q, err
		}
	}
	q.user, q.tool = v.Get("user"), v.Get("tool")
	if len(q.user) > maxAuditParam || len(q.tool) > maxAuditParam {
		return q, fmt.Errorf("user and tool: at most %d bytes", maxAuditParam)
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if errors.Is(err, strconv.ErrRange) && len(s) <= maxAuditParam && s[0] != '-' {
			n, err = MaxAuditLimit, nil // a huge positive number: as many as there may be
		}
		if err != nil || n < 1 {
			return q, fmt.Errorf("limit: %q is not a positive whole number", s)
		}
		q.limit = min(n, MaxAuditLimit)
	}
	return q, nil
}

// parseSince reads since=: an RFC 3339 time, a date YYYY-MM-DD (UTC
// midnight), or a Go duration meaning that long before now ("1h",
// "90m").
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil // time.Parse without a zone is UTC
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("since: %q is not an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02) or a duration ago (1h, 30m)", cut(s, 64))
}

// cut shortens s to at most n bytes for an error message.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
