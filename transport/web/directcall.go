package web

import (
	"encoding/json"
	"net/http"

	"opsassist/api"
	"opsassist/tools/toolcall"
)

// ToolRunner runs direct calls, POST /api/tools/{name} (toolcall.Runner,
// which tools.Registry implements and NPLT's TOOL_CALL shares): every
// call goes through the registry's policy, rate limits and audit log.
type ToolRunner = toolcall.Runner

// directCallBody is the body of POST /api/tools/{name}.
type directCallBody struct {
	// SessionID, if set, is a conversation of the caller's: the call
	// sees its uploads and is recorded under it.
	SessionID string `json:"session_id"`
	// Arguments is the tool's arguments object; absent or null: {}.
	Arguments json.RawMessage `json:"arguments"`
}

// listHint is how an HTTP caller lists the tools, named when a direct
// call names none of them.
const listHint = "GET /api/tools"

// handleDirectCall answers POST /api/tools/{name}: it runs the named tool
// once for the caller, as a direct call (toolcall.Direct: the policy
// decides, a deny still denies, a call it would ask about counts as
// approved by this request; audited with "direct": true), and answers
// 200 with the tools.Result — a failed or refused call too. 404 for an
// unknown tool or a conversation that is not the caller's, 400 for a body
// that is not JSON (bad_json), with a field other than session_id and
// arguments (toolcall.CheckFields) or arguments that are not an object
// (bad_request), 413 for a body over MaxJSONBody.
func (s *Server) handleDirectCall(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Runner == nil {
		s.writeError(w, r, errorf(http.StatusNotFound, api.CodeNotFound, "direct tool calls not enabled"))
		return
	}
	var raw json.RawMessage
	if err := s.decodeJSON(w, r, &raw, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	var body directCallBody
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadJSON, "request body is not valid JSON: "+err.Error()))
			return
		}
		if err := toolcall.CheckFields(raw, body); err != nil { // strict: "argumentz" must not run the tool with {}
			s.writeError(w, r, err)
			return
		}
	}
	who := s.principal(r)
	caller := toolcall.Caller{ClientType: api.ClientWeb, User: who.Name, Role: who.Role, Owner: who.ID}
	name := r.PathValue("name")
	if body.SessionID != "" {
		// The arguments and the name first, as without a conversation.
		if _, err := toolcall.Check(s.cfg.Runner, name, body.Arguments, listHint); err != nil {
			s.writeError(w, r, err)
			return
		}
		se, err := s.sessions.get(who, body.SessionID) // only the caller's own conversations
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		caller.SessionID = se.ID()
		_, caller.Uploads = se.History()
	}
	res, err := toolcall.Direct(r.Context(), s.cfg.Runner, caller, name, body.Arguments, listHint)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
