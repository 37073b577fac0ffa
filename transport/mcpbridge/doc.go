// Package mcpbridge serves, over one MCP transport (mcp-stdio's stdin
// and stdout), the tools of an opsassist daemon that is already running:
// it is how `opsassistd mcp-stdio` reaches a daemon that holds the data
// directory, since the audit log's hash chain has one writer.
//
// A Bridge is an MCP server on the local side and an MCP client of the
// daemon's streamable HTTP endpoint (/mcp) on the other. It connects to
// the daemon once the local client's initialize request has arrived, so
// that it advertises elicitation to the daemon only when the local client
// declared it; it then offers the daemon's tools under the same names,
// schemas and annotations, forwards every call, and forwards the daemon's
// elicitation requests (permission confirmations) and progress
// notifications to the local client. The daemon authenticates the bridge's
// token and applies its policy and audit; the bridge decides nothing.
//
// Failures: a daemon that cannot be reached at initialize fails the
// initialize request with an error naming its address, and Serve returns
// ErrUnreachable (mcp-stdio exits 1). A daemon lost mid-session makes each
// call a tool error (IsError) saying so; the call is not retried (it may
// have run), and the next call connects again.
//
// The package is a transport adapter: it imports no other transport and
// nothing of the daemon; mcp-stdio gives it the address, token and TLS.
package mcpbridge
