package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"opsassist/agent"
	"opsassist/tools/command"
)

// systemPrompt is the system message: who the assistant is, the tools,
// the commands cmds whitelists and those it runs once the user confirms
// (the ask tier), and the chains of the tool contract. With
// textProtocol the tools are listed with their schemas and the model is
// told to call them with TOOL:/ARGS: lines.
func systemPrompt(req *agent.PlanRequest, cmds command.Tiers, textProtocol bool) string {
	var b strings.Builder
	b.WriteString(`你是 opsassist，一个运行在服务器上的智能运维助手。You are opsassist, an ops assistant running on the user's server.
Answer in the user's language (Chinese or English), briefly, from real tool results; never invent numbers, paths or file contents.

Tools and chains:
- System resources (CPU/内存/磁盘): sys_monitor with metric cpu|memory|disk|all.
- Commands: command_executor runs whitelisted read-only commands (` + cmds.String() + `) without a shell.` + askLine(cmds) + ` Reading a path outside the allowed directories also needs the user's confirmation; secrets (/etc/shadow, keys, credentials) are always refused. Call the tool normally: the system asks the user, do not ask in your reply. If the user declines, do not retry that call. Refuse destructive or other commands (rm, mkfs, dd, shutdown, reboot, kill, useradd, passwd, sudo, package installs, pipes…) without calling any tool.
- Documents and files: semantic_search (scope system for docs and how-to questions, uploads for the user's files).
- Download "下载config.yaml": semantic_search {"query":"config.yaml","top_k":1} first, then file_download with the filepath it returns.
- "这个文件…/this file…": file_upload {"action":"read","reference":"this"} (or list first for several files), then answer from the content.
- Ambiguous requests (several files, hosts or services match, or a decision is the user's): ask_user with kind choice and the candidates as options (mark the likely one recommended), kind confirm for yes/no, kind text otherwise; then act on the answer in the same turn. Never use ask_user to ask permission for a tool call.
- Small talk and questions about your abilities need no tool.
`)
	if req != nil && req.Turn != nil {
		if n := len(req.Turn.Uploads); n > 0 {
			last := req.Turn.Uploads[n-1]
			fmt.Fprintf(&b, "\nThis conversation has %d uploaded file(s); the newest is %s (file_id %s).\n", n, last.Filename, last.FileID)
		}
		fmt.Fprintf(&b, "Client: %s. Current time: %s.\n", req.Turn.ClientType, req.Turn.Now.Format(time.RFC3339))
	}
	if textProtocol && req != nil && len(req.Tools) > 0 {
		b.WriteString("\nTo call a tool, reply with exactly these two lines and nothing else:\nTOOL: <tool name>\nARGS: <JSON arguments on one line>\nAvailable tools:\n")
		for _, s := range req.Tools {
			var v any
			params := string(s.Parameters)
			if json.Unmarshal(s.Parameters, &v) == nil {
				c, _ := json.Marshal(v)
				params = string(c)
			}
			fmt.Fprintf(&b, "- %s: %s\n  parameters: %s\n", s.Name, strings.ReplaceAll(s.Description, "\n", " "), params)
		}
	}
	if req != nil && len(req.Tools) == 0 {
		b.WriteString("\nNo tools are available for this step: answer now from what you have.\n")
	}
	return b.String()
}

// askLine names the ask tier's commands, which run only after the user
// confirms, or "" if the tier is empty.
func askLine(cmds command.Tiers) string {
	ask := cmds.Ask()
	if len(ask) == 0 {
		return ""
	}
	return " These operator commands run only after the user confirms each call: " + strings.Join(ask, ", ") + "."
}
