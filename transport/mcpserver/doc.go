// Package mcpserver will serve opsassist as an MCP server, so that other
// agents can use its tools. It is empty today; a later issue (14) brings
// it.
//
// It is a transport adapter beside npltserver and web: it imports the
// chat core and the tools layer, never another transport, and the daemon
// (the composition root) builds and serves it like the others. Calls go
// through the tools.Registry, so the same validation, policy, rate
// limits and audit apply as to calls from the agent.
package mcpserver
