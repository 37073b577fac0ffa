// Package tools is the agent's tool layer: the Tool interface, a Registry
// that validates arguments against each tool's JSON Schema before running
// it, a uniform Result, output capping for what the model sees, a
// Policy hook consulted before every call, a RateLimiter hook, error
// classes (Classify) with retries of transient failures (RetryPolicy),
// and a Recorder that receives a CallRecord of every call (the audit
// log; fail closed).
//
// The five tools of the tool contract (sys_monitor, command_executor,
// semantic_search, file_download, file_upload) live in subpackages and
// register here. Tools that come and go — an MCP server's (package
// tools/mcp) — are replaced per source (ReplaceSource, Unregister); the
// model is offered at most Config.MaxOffered tools (Offered), the
// built-in ones first.
package tools
