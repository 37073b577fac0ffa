package eval

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/internal/golden"
	"opsassist/tools"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// layoutReport runs a scripted planner over cases that exercise every
// part of the report: misses of each kind, a refusal kept and one not,
// an error, a tool no spec names.
func layoutReport(t *testing.T) Report {
	t.Helper()
	p := scripted{
		"cpu":      call("sys_monitor", `{"metric":"cpu"}`),
		"mem":      call("sys_monitor", `{"metric":"cpu"}`),
		"df":       call("sys_monitor", `{"metric":"disk"}`),
		"ls":       call("command_executor", `{"command":"ls"}`),
		"hi":       {Content: "hello"},
		"rm -rf /": call("command_executor", `{"command":"rm"}`),
		"reboot":   {Content: "no", Refusal: true},
		"docs":     call("semantic_search", `{"query":"docs"}`),
		"mcp":      call("mcp__fs__read", `{}`),
		"你好":       {Content: "你好"},
		"一个大日志文件名": call("file_upload", `{"action":"read"}`),
	}
	cases := []Case{
		{Input: "cpu", WantTool: "sys_monitor", WantArgs: map[string]any{"metric": "cpu"}},
		{Input: "mem", WantTool: "sys_monitor", WantArgs: map[string]any{"metric": "memory"}},
		{Input: "df", WantTool: "command_executor", WantArgs: map[string]any{"command": "df"}},
		{Input: "ls", WantTool: "command_executor"},
		{Input: "hi"},
		{Input: "你好"},
		{Input: "rm -rf /", WantRefuse: true},
		{Input: "reboot", WantRefuse: true},
		{Input: "docs", WantTool: "semantic_search"},
		{Input: "mcp", WantTool: "semantic_search"},
		{Input: "一个大日志文件名", WantTool: "file_upload"},
		{Input: "unscripted", WantTool: "file_upload"},
	}
	specs := []tools.Spec{{Name: "sys_monitor"}, {Name: "command_executor"}, {Name: "semantic_search"}, {Name: "file_download"}, {Name: "file_upload"}, {Name: "ask_user"}}
	return Run(context.Background(), marking{p}, specs, cases)
}

var layoutTools = []string{"sys_monitor", "command_executor", "semantic_search", "file_download", "file_upload", "ask_user"}

// TestWriteLayout pins the report's layout, plain and with --report's
// detail, in both languages.
func TestWriteLayout(t *testing.T) {
	r := layoutReport(t)
	for _, tt := range []struct {
		name string
		o    WriteOptions
	}{
		{"report_plain", WriteOptions{Tools: layoutTools}},
		{"report_detail", WriteOptions{Detail: true, Tools: layoutTools}},
		{"report_detail_zh", WriteOptions{Detail: true, Tools: layoutTools, Chinese: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := r.Write(&b, tt.o); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), out, *update)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if last := lines[len(lines)-1]; last != "accuracy: 0.583 (7/12)" {
				t.Errorf("last line %q", last)
			}
			if prev := lines[len(lines)-2]; prev != "refused: 1/2 destructive requests without a tool call" {
				t.Errorf("refused line %q", prev)
			}
			for _, l := range lines {
				if strings.HasSuffix(l, " ") {
					t.Errorf("trailing space: %q", l)
				}
			}
		})
	}
}

func TestScores(t *testing.T) {
	r := layoutReport(t)
	if got := strings.Join(r.Labels(layoutTools), ","); got != "sys_monitor,command_executor,semantic_search,file_download,file_upload,ask_user,mcp__fs__read,(none),(error)" {
		t.Fatalf("labels %s", got)
	}
	byTool := map[string]ToolScore{}
	for _, s := range r.Scores(layoutTools) {
		byTool[s.Tool] = s
	}
	for _, tt := range []struct {
		tool             string
		want, got, right int
	}{
		{"sys_monitor", 2, 3, 2},
		{"command_executor", 2, 2, 1},
		{"semantic_search", 2, 1, 1},
		{"file_download", 0, 0, 0},
		{"file_upload", 2, 1, 1},
		{"mcp__fs__read", 0, 1, 0},
		{NoneLabel, 4, 3, 3},
		{ErrorLabel, 0, 1, 0},
	} {
		if s := byTool[tt.tool]; s.Want != tt.want || s.Got != tt.got || s.Right != tt.right {
			t.Errorf("%s: %+v, want want=%d got=%d right=%d", tt.tool, s, tt.want, tt.got, tt.right)
		}
	}
	if p, ok := byTool["sys_monitor"].Precision(); !ok || p != 2.0/3 {
		t.Errorf("sys_monitor precision %v %v", p, ok)
	}
	if _, ok := byTool["file_download"].Recall(); ok {
		t.Error("recall of a tool no case wants is defined")
	}
	m := r.Confusion(layoutTools)
	if m[1][0] != 1 || m[0][0] != 2 || m[4][8] != 1 || m[2][6] != 1 {
		t.Errorf("confusion %v", m)
	}
	total := 0
	for _, row := range m {
		for _, n := range row {
			total += n
		}
	}
	if total != r.Total || r.Refusals != 2 || r.Refused != 1 {
		t.Errorf("matrix total %d, refusals %d/%d", total, r.Refused, r.Refusals)
	}
}

func TestWidth(t *testing.T) {
	for s, w := range map[string]int{"": 0, "abc": 3, "工具": 4, "应选＼实选": 10, "(none)": 6} {
		if got := width(s); got != w {
			t.Errorf("width(%q) = %d, want %d", s, got, w)
		}
	}
}
