package llm

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/internal/golden"
	"opsassist/storage/history"
	"opsassist/tools/command"
	"opsassist/tools/toolset"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestSystemPromptGolden pins the system prompt the model sees with the
// default configuration, with native tool calling and with the text
// protocol (which lists the five tools' specs), and with `commands:`
// extended by uptime, which must reach both the prompt's command list and
// command_executor's spec. A change to what the model is told shows up
// as a diff of testdata/prompt*.golden; review it and rerun with -update.
func TestSystemPromptGolden(t *testing.T) {
	withUptime, err := command.NewTiers([]string{"ls", "cat", "grep", "head", "tail", "ps", "pwd", "whoami", "df", "free", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		cmds command.Tiers
		text bool
	}{
		{"prompt.golden", command.Tiers{}, false},
		{"prompt_text.golden", command.Tiers{}, true},
		{"prompt_uptime_text.golden", withUptime, true},
	} {
		ws := t.TempDir()
		set, err := toolset.New(toolset.Config{Workspace: ws, Roots: []string{ws}, UploadsDir: t.TempDir(), Commands: tc.cmds})
		if err != nil {
			t.Fatal(err)
		}
		req := &agent.PlanRequest{
			Turn:  &chat.Turn{Input: "磁盘还剩多少空间？", ClientType: "cli", Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
			Tools: set.Registry.Specs(),
		}
		got := systemPrompt(req, tc.cmds, tc.text)
		set.Close()
		golden.Check(t, filepath.Join("testdata", tc.file), got, *update)
	}
}

// TestSystemPromptListsCommands: the prompt lists the whitelist of the
// tiers it is given, and the planner passes its Config's.
func TestSystemPromptListsCommands(t *testing.T) {
	cmds, err := command.NewTiers([]string{"ls", "uptime"})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Config{Model: "m", Commands: cmds})
	msgs := p.messages(&agent.PlanRequest{Turn: &chat.Turn{Input: "hi"}, Messages: []history.Message{{Role: "user", Content: "hi"}}})
	if !strings.Contains(msgs[0].Content, "commands (ls uptime) without a shell") {
		t.Fatalf("system prompt:\n%s", msgs[0].Content)
	}
}
