package api

import "encoding/json"

// Tool sources: ToolInfo.Source is SourceBuiltin or SourceMCPPrefix
// followed by the MCP server's name.
const (
	SourceBuiltin   = "builtin"
	SourceMCPPrefix = "mcp:"
)

// ToolInfo describes one registered tool: an element of the "tools"
// array of GET /api/tools (Catalog).
type ToolInfo struct {
	// Name is the name the model and direct calls use, e.g.
	// "sys_monitor" or "mcp__fs__read_file".
	Name string `json:"name"`
	// Description is the tool's description, as the model reads it.
	Description string `json:"description"`
	// SummaryZh and SummaryEn say what the tool does in one sentence
	// for people, each in its language alone, for a client to show the
	// one of its user's (tools.Spec's Summary); empty for MCP tools.
	SummaryZh string `json:"summary_zh,omitempty"`
	SummaryEn string `json:"summary_en,omitempty"`
	// Source is "builtin" or "mcp:" and the server's name.
	Source string `json:"source"`
	// Risk is "read_only", "sensitive" or "dangerous".
	Risk string `json:"risk"`
	// Parameters is the JSON Schema of the arguments object.
	Parameters json.RawMessage `json:"parameters"`
	// Available is false for a tool that is registered but not offered
	// to the model (past limits.max_tools); a direct call still runs it.
	Available bool `json:"available"`
}

// MCPServerInfo is the state of one configured MCP server: an element of
// the "servers" array of GET /api/tools.
type MCPServerInfo struct {
	Name string `json:"name"`
	// State is "starting", "ready" or "unavailable".
	State string `json:"state"`
	// Reason says why the server is unavailable, or why a ready
	// server's health_check_tool is not called; empty otherwise (a
	// starting server has none).
	Reason string `json:"reason,omitempty"`
	// Restarts counts the sessions started after the first.
	Restarts int `json:"restarts"`
	// Tools is how many of its tools are registered.
	Tools int `json:"tools"`
}

// ToolResult is the outcome of a tool call (tools.Result is this type):
// the answer of POST /api/tools/{name}.
type ToolResult struct {
	// Success is false for a call that failed, was refused or timed out.
	Success bool `json:"success"`
	// Output is the tool's JSON output.
	Output json.RawMessage `json:"output,omitempty"`
	// Error says why the call did not succeed.
	Error string `json:"error,omitempty"`
	// Code names, for a call that did not succeed, why — so a client
	// can say it in the user's language (tools.UserText) while Error
	// keeps the raw reason: declined, not_answered, cancelled,
	// disconnected, no_confirmation, denied, secret_file,
	// command_not_allowed, not_regular, not_found, access_denied,
	// is_directory, exists, no_uploads, denied_by_role,
	// denied_by_rule, rate_limited, audit_paused, loop_stopped,
	// step_limit, timeout, unavailable, args_in_command, or the error's class
	// (connection, permission, parameter, validation, execution).
	// Empty on success.
	Code string `json:"code,omitempty"`
	// DurationMS is the whole call, asking and retries included.
	DurationMS int64 `json:"duration_ms"`
}

// Catalog is the body of GET /api/tools: every registered tool, and
// every configured MCP server (so an operator sees why a server's tools
// are missing).
type Catalog struct {
	Tools   []ToolInfo      `json:"tools"`
	Servers []MCPServerInfo `json:"servers"`
}
