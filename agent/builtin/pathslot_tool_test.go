package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
	"opsassist/tools/command"
	"opsassist/tools/pathguard"
	"opsassist/tools/policy"
)

// cjkLog is the log pathAgent writes under a CJK directory.
const cjkLog = "第一行 start\nline two\n第三行 ERROR disk\nlast line 結束\n"

// pathAgent is an agent with the real command_executor behind
// pathguard, and, with withPolicy, the real permission policy; its one
// root is a temporary directory holding 資料/記錄.log.
func pathAgent(t *testing.T, withPolicy bool) (a *agent.Agent, root string) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "資料"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "資料", "記錄.log"), []byte(cjkLog), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := pathguard.New(pathguard.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := command.New(command.Config{Workspace: root, Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	cfg := tools.Config{}
	if withPolicy {
		pol, err := policy.New(policy.Config{Inspectors: map[string]policy.Inspector{"command_executor": ex}})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Policy = pol
	}
	reg := tools.NewRegistry(cfg)
	if err := reg.Register(ex); err != nil {
		t.Fatal(err)
	}
	a, err = agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": Planner{}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	return a, root
}

// commandResult is the command_executor result of a turn's tool
// message.
type commandResult struct {
	Success bool   `json:"success"`
	Code    string `json:"code"`
	Error   string `json:"error"`
	Output  struct {
		Command string `json:"command"`
		Stdout  string `json:"stdout"`
	} `json:"output"`
}

func toolResult(t *testing.T, msgs []history.Message) (commandResult, bool) {
	t.Helper()
	for _, m := range msgs {
		if m.Role == "tool" {
			var r commandResult
			if err := json.Unmarshal([]byte(m.Content), &r); err != nil {
				t.Fatalf("tool message %q: %v", m.Content, err)
			}
			return r, true
		}
	}
	return commandResult{}, false
}

// TestCJKPathReachesCommand: a path with CJK directory and file names
// reaches the real command tool whole — written with traditional
// characters, which the planner reads as simplified, glued to Chinese
// prose, or in an English request — pathguard checks the file opened,
// and the answer quotes the file's lines in the user's language.
func TestCJKPathReachesCommand(t *testing.T) {
	a, root := pathAgent(t, true)
	log := root + "/資料/記錄.log"
	for _, tt := range []struct {
		in, command, stdout string
		zh                  bool
	}{
		{"cat " + log, "cat " + log, cjkLog, false},
		{"执行 cat " + log, "cat " + log, cjkLog, true},
		{"tail -n 2 " + log, "tail -n 2 " + log, "第三行 ERROR disk\nlast line 結束\n", false},
		{"显示 " + log + " 的最后 2 行", "tail -n 2 " + log, "第三行 ERROR disk\nlast line 結束\n", true},
		{"show me the last 2 lines of " + log, "tail -n 2 " + log, "第三行 ERROR disk\nlast line 結束\n", false},
		{"在 " + log + " 里 grep 一下 ERROR", "grep ERROR " + log, "第三行 ERROR disk\n", true},
		{"看下" + log + "里的内容", "cat " + log, cjkLog, true},
		{"read \"" + log + "\" please", "cat " + log, cjkLog, false},
	} {
		r, msgs := ask(t, a, tt.in, nil)
		res, ok := toolResult(t, msgs)
		if !ok || !res.Success || res.Output.Command != tt.command || res.Output.Stdout != tt.stdout {
			t.Errorf("%q: tool result %+v, want %q giving %q", tt.in, res, tt.command, tt.stdout)
			continue
		}
		text := r.text.String()
		if !strings.Contains(text, "第三行 ERROR disk") || strings.HasPrefix(text, "命令 ") != tt.zh {
			t.Errorf("%q: answer %q (Chinese: %v)", tt.in, text, tt.zh)
		}
	}
	r, msgs := ask(t, a, "ls "+root+"/資料", nil)
	if res, ok := toolResult(t, msgs); !ok || !res.Success || !strings.Contains(res.Output.Stdout, "記錄.log") {
		t.Errorf("ls: %+v, answer %q", res, r.text.String())
	}
}

// declining answers every confirmation with a refusal and keeps them.
type declining struct {
	rec
	asked []chat.Confirmation
}

func (d *declining) Confirm(_ context.Context, c chat.Confirmation) (chat.Confirmed, error) {
	d.asked = append(d.asked, c)
	return chat.Confirmed{Allowed: false, By: chat.AnsweredByUser}, nil
}

// TestCJKPathOutsideRoots: a CJK path outside the allowed roots is
// checked whole: with the permission policy (the daemon's setup) the
// user is asked about the path as written and, declining, told so in
// their language; without it, pathguard refuses the path, named whole,
// in an English answer, and a Chinese answer says the call failed
// without an English reason.
func TestCJKPathOutsideRoots(t *testing.T) {
	const outside = "/srv/資料外/記錄.log"
	a, _ := pathAgent(t, true)
	for in, want := range map[string]string{
		"显示 " + outside + " 的内容": "你拒绝了",
		"show me " + outside:     "You declined",
	} {
		d := &declining{}
		msgs, err := a.Respond(context.Background(), &chat.Turn{Input: in, Model: "builtin", ClientType: "cli", Now: time.Now()}, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.asked) != 1 || !strings.Contains(string(d.asked[0].Args), outside) {
			t.Fatalf("%q: asked %+v", in, d.asked)
		}
		if res, _ := toolResult(t, msgs); res.Success || res.Output.Stdout != "" {
			t.Errorf("%q: ran: %+v", in, res)
		}
		if text := d.text.String(); !strings.Contains(text, want) {
			t.Errorf("%q: answer %q, want %q", in, text, want)
		}
	}

	a, _ = pathAgent(t, false)
	for in, want := range map[string]string{
		"显示 " + outside + " 的内容": "command_executor 执行失败。",
		"show me " + outside:     `"` + outside + `" is outside the directories the assistant may read`,
	} {
		r, msgs := ask(t, a, in, nil)
		res, _ := toolResult(t, msgs)
		if res.Success || !strings.Contains(res.Error, `"`+outside+`" is outside`) {
			t.Errorf("%q: tool result %+v", in, res)
		}
		if text := r.text.String(); !strings.Contains(text, want) || strings.Contains(want, "执行失败") && strings.Contains(text, "outside") {
			t.Errorf("%q: answer %q, want %q", in, text, want)
		}
	}
}

// TestHomePathKept: "show ~/.ssh/authorized_keys" is cat of the path
// whole, and the tool refuses it as a file that may hold secrets, in
// the user's language.
func TestHomePathKept(t *testing.T) {
	a, _ := pathAgent(t, true)
	for in, want := range map[string]string{
		"show ~/.ssh/authorized_keys": `"cat ~/.ssh/authorized_keys" may hold secrets, so it is never read`,
		"看下 ~/.ssh/authorized_keys":   `"cat ~/.ssh/authorized_keys"可能含有密钥或口令，不会读取它`,
	} {
		r, msgs := ask(t, a, in, nil)
		if res, _ := toolResult(t, msgs); res.Success || res.Code != "secret_file" {
			t.Errorf("%q: %+v", in, res)
		}
		if text := r.text.String(); !strings.Contains(text, want) {
			t.Errorf("%q: answer %q, want %q", in, text, want)
		}
	}
}
