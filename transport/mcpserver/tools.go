package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
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

// callHeader is the request header under which Handler passes a call
// the token of the HTTP request that carried it (session.track): the
// call is cancelled when that request goes away. Handler sets or
// removes it on every request, so a client cannot choose it.
const callHeader = "X-Opsassist-Mcp-Call"

// handle is the SDK handler of tool name: the call goes through the
// Runner for the session's principal, as client type mcp, with the
// session's elicitation as its confirmation when the client can answer
// one. It is refused at once past MaxCallsPerSession or
// MaxCallsPerUser, and refused and recorded (Runner.Refuse) when its
// session or the HTTP request that carried it has already ended. Its
// context ends when the client cancels it, when the HTTP request that
// carried it goes away, when the session ends and at Shutdown. A panic is logged and answered as a tool error; the
// session goes on.
func (s *Server) handle(name string, state func(*mcp.ServerSession) *session) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("mcp call panicked", zap.String("tool", name), zap.Any("panic", p), zap.Stack("stack"))
				res, err = errorResult("call to %s failed: internal error in the opsassist server (logged)", name), nil
			}
		}()
		st := state(req.Session)
		if st == nil {
			return errorResult("this MCP session is unknown or closed; start a new one"), nil
		}
		if !s.enter() {
			return errorResult("the server is stopping"), nil
		}
		defer s.wg.Done()
		if !st.acquire() {
			return errorResult("call to %s refused: this MCP session already runs %d calls at once; wait for one to finish (服务器繁忙)", name, s.cfg.MaxCallsPerSession), nil
		}
		defer st.release()
		if !s.acquireUser(st.who.ID) {
			return errorResult("call to %s refused: %s already runs %d calls at once over MCP; wait for one to finish (服务器繁忙)", name, userName(st.who), s.cfg.MaxCallsPerUser), nil
		}
		defer s.releaseUser(st.who.ID)

		var (
			mu    sync.Mutex // the tool may offer from a goroutine of its own
			offer *api.Offer
		)
		call := &tools.Call{
			ClientType: api.ClientMCP, User: st.who.Name, Role: st.who.Role, Owner: st.who.ID,
			SessionID: st.id, ToolCallID: "mcp-" + randomHex(8),
			Offer: func(o api.Offer) error { mu.Lock(); offer = &o; mu.Unlock(); return nil },
		}
		args := "{}"
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			args = string(req.Params.Arguments)
		}
		// A session or request that has already ended runs nothing: the
		// call is refused and recorded, never started to be cancelled
		// from another goroutine mid-run.
		if st.ctx.Err() != nil {
			return s.refuse(call, name, args, "call to %s not run: this MCP session has ended; start a new one", name), nil
		}
		ctx, cancel := context.WithCancelCause(ctx) // the client's notifications/cancelled
		defer cancel(nil)
		stop := context.AfterFunc(st.ctx, func() { cancel(errSessionEnded) })
		defer stop()
		if req.Extra != nil && req.Extra.Header != nil {
			if token := req.Extra.Header.Get(callHeader); token != "" {
				rctx, ok := st.request(token)
				if !ok || rctx.Err() != nil {
					return s.refuse(call, name, args, "call to %s not run: the request that carried it has ended", name), nil
				}
				stopReq := context.AfterFunc(rctx, func() { cancel(errSessionEnded) })
				defer stopReq()
			}
		}

		if canElicit(req.Session) {
			call.Confirm = s.confirmer(st, req.Session)
		}
		out := s.cfg.Runner.Execute(ctx, call, name, args)
		mu.Lock()
		defer mu.Unlock()
		return s.result(out, offer), nil
	}
}

// refuse records a call that is not run, as the registry records the
// calls refused before running (tools.ByDisconnect: its session or
// request had gone), and returns the refusal for the client.
func (s *Server) refuse(call *tools.Call, name, args, format string, a ...any) *mcp.CallToolResult {
	reason := fmt.Sprintf(format, a...)
	s.cfg.Runner.Refuse(call, name, args, tools.ByDisconnect, reason)
	return errorResult("%s", reason)
}

// userName names who in a refusal.
func userName(who chat.Principal) string {
	if who.Name != "" {
		return "user " + who.Name
	}
	return "this user"
}

// enter counts a call in s.wg; false once the server is closed.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// acquireUser counts a call of principal id; false, at once, at
// MaxCallsPerUser.
func (s *Server) acquireUser(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.userCalls[id] >= s.cfg.MaxCallsPerUser {
		return false
	}
	s.userCalls[id]++
	return true
}

// releaseUser ends a call acquireUser counted.
func (s *Server) releaseUser(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.userCalls[id]--; s.userCalls[id] <= 0 {
		delete(s.userCalls, id)
	}
}

// errorResult is a refused call's result.
func errorResult(format string, a ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, a...)}}}
}
