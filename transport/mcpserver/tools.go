package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/tools"
	"opsassist/tools/askuser"
)

// offered returns the specs the server offers, in the registry's order:
// the built-in tools (Spec.Source "" or tools.SourceBuiltin) but the
// agent's own ask_user — never the MCP tools opsassist consumes, which
// are their servers' to offer.
func offered(specs []tools.Spec) []tools.Spec {
	var out []tools.Spec
	for _, sp := range specs {
		if (sp.Source == "" || sp.Source == tools.SourceBuiltin) && sp.Name != askuser.Name {
			out = append(out, sp)
		}
	}
	return out
}

// titles are the tools' human-readable names (annotations.title).
var titles = map[string]string{
	"sys_monitor":      "System monitor (系统监控)",
	"command_executor": "Run a whitelisted command (执行命令)",
	"semantic_search":  "Search local documents (文档检索)",
	"file_download":    "Offer a file for download (文件下载)",
	"file_upload":      "Read the conversation's uploads (上传文件)",
}

// openWorld names the tools that reach beyond the machine's own state
// and documents: a command may talk to the network (ping, curl, dig).
var openWorld = map[string]bool{"command_executor": true}

// toolOf is the MCP tool for spec: its name, description, JSON schema
// (the registry's own, which validates the arguments) and annotations
// from its risk.
func toolOf(spec tools.Spec) *mcp.Tool {
	title := titles[spec.Name]
	if title == "" {
		title = spec.Name
	}
	return &mcp.Tool{
		Name:        spec.Name,
		Title:       title,
		Description: spec.Description,
		InputSchema: json.RawMessage(spec.Parameters),
		Annotations: annotations(spec, title),
	}
}

// annotations map a tool's risk onto MCP's hints: read_only is
// readOnlyHint (and idempotent: reading again changes nothing),
// dangerous is destructiveHint, sensitive is neither.
func annotations(spec tools.Spec, title string) *mcp.ToolAnnotations {
	destructive := spec.Risk == tools.RiskDangerous
	ow := openWorld[spec.Name]
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    spec.Risk == tools.RiskReadOnly,
		DestructiveHint: &destructive,
		IdempotentHint:  spec.Risk == tools.RiskReadOnly,
		OpenWorldHint:   &ow,
	}
}

// handle is the SDK handler of tool name: the call goes through the
// Runner for the session's principal, as client type mcp, with the
// session's elicitation as its confirmation when the client can answer
// one.
func (s *Server) handle(name string, state func(*mcp.ServerSession) *session) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := state(req.Session)
		if st == nil {
			return errorResult("this MCP session is unknown or closed; start a new one"), nil
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return errorResult("the server is stopping"), nil
		}
		s.wg.Add(1)
		s.mu.Unlock()
		defer s.wg.Done()
		// Shutdown cancels the call; the SDK does not when it closes the
		// session.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(s.base, cancel)
		defer stop()

		var (
			mu    sync.Mutex // the tool may offer from a goroutine of its own
			offer *api.Offer
		)
		call := &tools.Call{
			ClientType: api.ClientMCP, User: st.who.Name, Role: st.who.Role, Owner: st.who.ID,
			SessionID: st.id, ToolCallID: "mcp-" + randomHex(8),
			Offer: func(o api.Offer) error { mu.Lock(); offer = &o; mu.Unlock(); return nil },
		}
		if canElicit(req.Session) {
			call.Confirm = s.confirmer(st, req.Session)
		}
		args := "{}"
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			args = string(req.Params.Arguments)
		}
		out := s.cfg.Runner.Execute(ctx, call, name, args)
		mu.Lock()
		defer mu.Unlock()
		return s.result(out, offer), nil
	}
}

// errorResult is a refused call's result.
func errorResult(format string, a ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, a...)}}}
}
