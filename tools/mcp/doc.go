// Package mcp will hold the MCP clients: external tool servers, named in
// the daemon's configuration, whose tools the agent can call as if they
// were built in. It is empty today; a later issue (14) brings it.
//
// Each remote tool plugs in as a tools.Tool: its Spec comes from the
// server's tool list (name, description, JSON Schema, a risk level the
// configuration assigns), its Run makes the remote call. Registered in
// the tools.Registry like the built-in tools, remote tools pass the same
// schema validation, policy, rate limits and audit.
package mcp
