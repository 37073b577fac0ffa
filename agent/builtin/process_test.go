package builtin

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/tools"
	"opsassist/tools/command"
	"opsassist/tools/pathguard"
	"opsassist/tools/policy"
)

// processAgent is an agent with the real command_executor behind the
// real permission policy; the recorder's Confirm answers as a client
// that left, so an asked call does not run.
func processAgent(t *testing.T) *agent.Agent {
	t.Helper()
	root := t.TempDir()
	v, err := pathguard.New(pathguard.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := command.New(command.Config{Workspace: root, Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(policy.Config{Inspectors: map[string]policy.Inspector{"command_executor": ex}})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Config{Policy: pol})
	if err := reg.Register(ex); err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": Planner{}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestProcessesShowNamesNotCommandLines: "查看进程" and "show processes"
// run ps with the default columns and answer with its table; "ps aux",
// which shows full command lines, is asked about and does not run
// when nobody confirms it.
func TestProcessesShowNamesNotCommandLines(t *testing.T) {
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("ps is not installed")
	}
	a := processAgent(t)
	for _, q := range []string{"查看进程", "show processes", "which processes are using the most cpu"} {
		r, msgs := ask(t, a, q, nil)
		text := r.text.String()
		if !strings.Contains(text, "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu") ||
			!strings.Contains(text, "%CPU") || !strings.Contains(text, "COMMAND") {
			t.Errorf("%q: answer %q", q, text)
		}
		if len(msgs) < 2 || msgs[1].Role != "tool" || !strings.Contains(msgs[1].Content, `"success":true`) && !strings.Contains(msgs[1].Content, `"exit_code":0`) {
			t.Errorf("%q: messages %+v", q, msgs)
		}
	}
	for _, q := range []string{"ps aux", "执行 ps -ef"} {
		r, _ := ask(t, a, q, nil)
		text := r.text.String()
		if strings.Contains(text, "COMMAND") || strings.Contains(text, "CMD") {
			t.Errorf("%q ran without confirmation: %q", q, text)
		}
	}
}

// TestProcessAnswerBothShapes: the planner's answer quotes ps's table
// whichever columns it has — the default (command names) and the full
// "ps aux" an approved call shows — with real output of this machine's
// ps.
func TestProcessAnswerBothShapes(t *testing.T) {
	psPath, err := exec.LookPath("ps")
	if err != nil {
		t.Skip("ps is not installed")
	}
	for _, args := range [][]string{(command.Tiers{}).DefaultArgs("ps"), {"aux"}} {
		out, err := exec.Command(psPath, args...).Output()
		if err != nil {
			t.Fatalf("ps %q: %v", args, err)
		}
		line := "ps " + strings.Join(args, " ")
		raw, _ := json.Marshal(map[string]any{"command": line, "exit_code": 0, "stdout": string(out), "stderr": ""})
		for _, zh := range []bool{true, false} {
			got := describeCommand(zh, result{tool: "command_executor", Success: true, Output: raw})
			if !strings.Contains(got, "`"+line+"`") {
				t.Errorf("ps %q: answer lacks the command: %q", args, got)
			}
			for l := range strings.Lines(strings.TrimRight(string(out), "\n")) {
				if !strings.Contains(got, strings.TrimRight(l, "\n")) {
					t.Errorf("ps %q: answer lacks %q", args, l)
					break
				}
			}
		}
	}
}
