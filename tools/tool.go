package tools

import (
	"context"
	"encoding/json"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
)

// Risk classifies what a tool can do.
type Risk string

// Risk levels, from harmless to destructive.
const (
	RiskReadOnly  Risk = "read_only"
	RiskSensitive Risk = "sensitive"
	RiskDangerous Risk = "dangerous"
)

// Spec describes a tool to the model and to the runtime.
type Spec struct {
	// Name is the function name the model calls, e.g. "sys_monitor".
	Name string
	// Description tells the model when to use the tool.
	Description string
	// Summary says what the tool does in one sentence for people, in
	// Chinese and in English, for a client to show in its user's
	// language (opsassist tools, /tools) where Description mixes both
	// for the model. Empty for MCP tools: their Description is all there
	// is.
	Summary api.Text
	// Parameters is the JSON Schema of the arguments object.
	Parameters json.RawMessage
	// Risk is the tool's risk level: the Policy's default for the tool,
	// and what the user is shown when asked.
	Risk Risk
	// Timeout bounds one attempt of a call. Zero means DefaultTimeout.
	Timeout time.Duration
	// Source is where the tool comes from, as role patterns name it
	// ("source:tool"): "" or SourceBuiltin for the built-in tools, the
	// server's name for an MCP server's tools.
	Source string
	// SourceName is the tool's own name at its source — an MCP server's
	// name for it — when Name is not simply derived from it (package
	// tools/mcp sanitises names and adds hash suffixes). Role patterns
	// match it as the tool half. Empty for the built-in tools.
	SourceName string
}

// SourceBuiltin is the Source of the built-in tools (api.SourceBuiltin,
// as GET /api/tools shows it).
const SourceBuiltin = api.SourceBuiltin

// Call is the context of one tool invocation: who is asking, from where.
type Call struct {
	// SessionID is the conversation the call belongs to.
	SessionID string
	// ClientType is "cli", "desktop", "web" or "mcp" (api.Client*).
	ClientType string
	// User and Role are who the call runs for (chat.Principal's Name
	// and Role): the Policy decides by the role, the RateLimiter counts
	// per user, the audit log records both. Empty Role: the policy's
	// default role.
	User, Role string
	// Uploads are the conversation's uploads, oldest first. Tools see
	// only these, never another conversation's.
	Uploads []history.Upload
	// Offer, if set, sends a download offer to the client.
	Offer func(api.Offer) error
	// Owner is the principal id (chat.Principal.ID) the call runs for,
	// set by a caller outside any conversation (an MCP session): a
	// download the call offers may be fetched by that principal
	// (tokens.Token.Owner). Empty: by whoever may see SessionID.
	Owner string
	// ToolCallID is the model's id of this call; every id gets exactly
	// one result.
	ToolCallID string
	// Confirm, if set, asks the user about a call the Policy put at Ask
	// and waits for the answer, the deadline or ctx; it answers every
	// Confirmation exactly once and never blocks past ctx. Nil: nobody
	// can be asked, and Ask is refused.
	Confirm func(ctx context.Context, c Confirmation) (Confirmed, error)
	// AskUser, if set, puts a question to the user (the ask_user tool)
	// and waits for the answer, its deadline or ctx; it answers every
	// Question exactly once and never blocks past ctx. Nil: nobody can
	// be asked.
	AskUser func(ctx context.Context, q Question) (Answered, error)
	// Loop, if set, is the loop guard's reason for not running this
	// call (package tools/loopguard; the agent checks each call of a
	// turn in order before it starts), meant for the model. After the
	// Policy (which may deny it, unasked) and the rate limiter, the
	// Registry asks the user whether to run it anyway (through Confirm,
	// with LoopQuestion and the Scope LoopScope, which no grant of the
	// tool's ordinary permission answers) and otherwise refuses it with
	// Loop as the reason. Allowed, the call goes on to the permission
	// question when the Policy put it at Ask.
	Loop string
	// LoopQuestion is the question the user is asked about a call the
	// loop guard stopped (loopguard.Verdict.Question), in Chinese and
	// English. Zero: a generic one naming the tool.
	LoopQuestion api.Text
	// Approved is set by the Registry on the call it runs after the user
	// confirmed it: a tool may then do what its Policy rule put at Ask
	// (e.g. read a path outside the allowed roots, never a denied one).
	Approved bool
	// Direct marks a call a person asked for by name (POST
	// /api/tools/{name}), not one the model made: the Policy still
	// decides and a denied call is refused, but a call the Policy puts
	// at Ask counts as approved by the request itself
	// (DecidedByDirect), nobody is asked. Recorded as
	// CallRecord.Direct.
	Direct bool
}

// Tool is one capability the agent can call.
type Tool interface {
	// Spec describes the tool. It must not change.
	Spec() Spec
	// Run executes the tool with arguments already validated against
	// Spec().Parameters. The returned value is encoded as the result's
	// JSON output. An error is reported to the model, not raised.
	Run(ctx context.Context, call *Call, args json.RawMessage) (any, error)
}

// Result is the outcome of every tool call: api.ToolResult, whose JSON
// the direct-call endpoint answers and the client reads.
type Result = api.ToolResult
