// Package mcp is the MCP client core: external tool servers, named in
// the daemon's configuration, whose tools the agent calls as if they
// were built in (issue 14; docs/mcp.md).
//
// A Manager runs one long-lived client session per configured server —
// a stdio child (stdioTransport: the SDK's CommandTransport, but a
// session ends as soon as its child exits) or a streamable HTTP
// endpoint — started in the background, retried with capped exponential
// backoff and a circuit breaker, health-checked, and re-listed on
// notifications/tools/list_changed. While a server is ready, each of its
// tools is registered in the tools.Registry (ReplaceSource, Source = the
// server's name) as mcp__<server>__<tool> (ToolName), its input schema
// passed through, so its calls pass the same schema validation, policy,
// rate limits, loop guard, retries and audit as the built-in tools.
// While it is not, its tools are gone from the registry and Status says
// why.
package mcp
