package builtin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/tools"
	"opsassist/tools/command"
)

// TestConfiguredTiers: a planner built with configured command tiers
// runs what they whitelist, in every form it recognises, refuses what
// they do not, even where its rules name a default command, and lists
// the configured whitelist when it refuses.
func TestConfiguredTiers(t *testing.T) {
	cmds, err := command.NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Config{Commands: cmds})
	for _, tt := range []struct{ in, args string }{
		{"执行 uptime", `{"args":[],"command":"uptime"}`},
		{"run uptime", `{"args":[],"command":"uptime"}`},
		{"帮我跑一下 uptime -p", `{"args":["-p"],"command":"uptime"}`},
		{"uptime", `{"args":[],"command":"uptime"}`},
		{"`uptime -s`", `{"args":["-s"],"command":"uptime"}`},
		{"查看运行时间（uptime -p）", `{"args":["-p"],"command":"uptime"}`},
		{"用uptime命令看看", `{"args":[],"command":"uptime"}`},
		{"看一下 /var/log 目录下有什么", `{"args":["-la","/var/log"],"command":"ls"}`},
	} {
		in := p.Classify(tt.in, false)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != tt.args {
			t.Errorf("%q: %s %s %s, want %s", tt.in, in.Kind, in.Tool, b, tt.args)
		}
	}
	for _, q := range []string{"执行 free -h", "看下 /var/log/syslog 最后100行", "我是谁", "查看进程", "cat /etc/hosts"} {
		in := p.Classify(q, false)
		if in.Kind != "refuse" || !strings.Contains(in.Reason, "not in the whitelist (ls uptime)") {
			t.Errorf("%q: %s %s %q, want a refusal listing ls uptime", q, in.Kind, in.Tool, in.Reason)
		}
	}
	// The default planner refuses uname (in no tier) and lists the
	// defaults. (uptime is in the default ask tier since issue 12.)
	if in := (Planner{}).Classify("执行 uname -a", false); in.Kind != "refuse" || !strings.Contains(in.Reason, "(ls cat grep head tail ps pwd whoami df free)") {
		t.Errorf("default planner: %+v", in)
	}
	// The refusal's answer lists the configured whitelist in both languages.
	req := &agent.PlanRequest{Turn: &chat.Turn{}, Tools: []tools.Spec{{Name: "command_executor"}}}
	for in, want := range map[string]string{
		"执行 top":  "只运行只读的白名单命令（ls uptime）",
		"run top": "read-only whitelisted commands (ls uptime)",
	} {
		req.Turn.Input = in
		st, err := p.Plan(context.Background(), req, func(string) error { return nil })
		if err != nil || len(st.ToolCalls) != 0 || !strings.Contains(st.Content, want) {
			t.Errorf("%q: %+v, %v; want %q", in, st, err, want)
		}
	}
	// With nothing whitelisted, nothing runs.
	none, _ := command.NewTiers([]string{})
	if in := New(Config{Commands: none}).Classify("ls -la", false); in.Kind != "refuse" {
		t.Errorf("empty whitelist: %+v", in)
	}
}
