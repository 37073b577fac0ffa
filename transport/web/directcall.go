package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"opsassist/api"
	"opsassist/tools"
)

// ToolRunner runs direct calls, POST /api/tools/{name} (tools.Registry
// implements it): every call goes through the registry's policy, rate
// limits and audit log.
type ToolRunner interface {
	// Names returns the registered tool names.
	Names() []string
	// Execute runs one call; it never fails, a refusal or a tool error
	// comes back as an unsuccessful Result.
	Execute(ctx context.Context, call *tools.Call, name, rawArgs string) tools.Outcome
}

// directCallBody is the body of POST /api/tools/{name}.
type directCallBody struct {
	// SessionID, if set, is a conversation of the caller's: the call
	// sees its uploads and is recorded under it.
	SessionID string `json:"session_id"`
	// Arguments is the tool's arguments object; absent or null: {}.
	Arguments json.RawMessage `json:"arguments"`
}

// handleDirectCall answers POST /api/tools/{name}: it runs the named tool
// once for the caller, as a direct call (tools.Call.Direct: the policy
// decides, a deny still denies, a call it would ask about counts as
// approved by this request; audited with "direct": true), and answers
// 200 with the tools.Result — a failed or refused call too. 404 for an
// unknown tool or a conversation that is not the caller's, 400 for a body
// that is not JSON or arguments that are not an object, 413 for a body
// over MaxJSONBody.
func (s *Server) handleDirectCall(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Runner == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "direct tool calls not enabled"))
		return
	}
	var body directCallBody
	if err := s.decodeJSON(w, r, &body, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	args := bytes.TrimSpace(body.Arguments)
	switch {
	case len(args) == 0 || bytes.Equal(args, []byte("null")):
		args = []byte("{}")
	case args[0] != '{':
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, "arguments must be a JSON object"))
		return
	}
	name := r.PathValue("name")
	if !slices.Contains(s.cfg.Runner.Names(), name) {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, fmt.Sprintf("no such tool: %q (GET /api/tools lists them)", name)))
		return
	}
	who := s.principal(r)
	call := &tools.Call{ClientType: api.ClientWeb, User: who.Name, Role: who.Role, Owner: who.ID, Direct: true}
	if body.SessionID != "" {
		se, err := s.sessions.get(who, body.SessionID) // only the caller's own conversations
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		call.SessionID = se.ID()
		_, call.Uploads = se.History()
	}
	out := s.cfg.Runner.Execute(r.Context(), call, name, string(args))
	writeJSON(w, http.StatusOK, out.Result)
}
