// Package mcpserver serves opsassist as an MCP server, so that other
// agents (Claude Code, goose, kubectl-ai, any MCP client) can use its
// five built-in tools: streamable HTTP at /mcp (Handler, mounted by the
// HTTP server behind its authentication) and any other MCP transport,
// such as stdio (Serve).
//
// It is a transport adapter beside npltserver and web: it imports the
// chat core and the tools layer, never another transport, and the daemon
// (the composition root) builds it over the tool registry. Calls go
// through the Runner (tools.Registry), so the same validation, policy,
// roles, rate limits and audit apply as to calls from the agent; a call
// the policy puts at ask is confirmed through an MCP elicitation when the
// client supports it, and refused otherwise. Calls are bounded per
// session and per user (refused at once past the bound), and each runs
// under its session's context (session.go): it ends when the client
// cancels it, its HTTP request goes away, its session ends or the
// server shuts down.
package mcpserver
