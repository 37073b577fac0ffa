package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/tools"
)

// plan runs one planning step of p on input, with tools offered.
func plan(t *testing.T, p Planner, ctx context.Context, input string) (*agent.Step, string, error) {
	t.Helper()
	var text strings.Builder
	st, err := p.Plan(ctx, &agent.PlanRequest{Turn: &chat.Turn{Input: input}, Tools: []tools.Spec{{Name: "command_executor"}}},
		func(d string) error { text.WriteString(d); return nil })
	return st, text.String(), err
}

// TestPlanInputCap: a message over the cap runs no tool and is answered,
// in the user's language, with a request to shorten it; one at the cap is
// planned. The zero Planner has the 16 KiB default.
func TestPlanInputCap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     Planner
		input string
		tool  bool
		want  string
	}{
		{"default at cap", Planner{}, "ls" + strings.Repeat(" -la", (DefaultMaxInput-2)/4), true, ""},
		{"default over cap", Planner{}, "ls" + strings.Repeat(" -la", DefaultMaxInput/4), false, "more than the 16 KB"},
		{"64 KB path", Planner{}, "cat /" + strings.Repeat("a", 60000), false, "This message is 59 KB"},
		{"chinese over cap", Planner{}, "执行 ls -la " + strings.Repeat("c", 60000), false, "超过了离线助手能读的 16 KB"},
		{"256 KB", Planner{}, "ls" + strings.Repeat(" -la", 64<<10), false, "This message is 257 KB"},
		{"configured", New(Config{MaxInput: 64 << 10}), "cat /" + strings.Repeat("a", 60000), true, ""},
		{"configured small", New(Config{MaxInput: 10}), "free -h please", false, "more than the 1 KB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, text, err := plan(t, tc.p, context.Background(), tc.input)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(st.ToolCalls) > 0; got != tc.tool {
				t.Fatalf("tool calls %v, answer %.100q", st.ToolCalls, text)
			}
			if !strings.Contains(text, tc.want) || text != st.Content {
				t.Fatalf("answer %q", text)
			}
		})
	}
}

// TestPlanStopsWhenCancelled: a turn whose client left plans nothing.
func TestPlanStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range []string{"ls -la", "你好", strings.Repeat("x", 20000)} {
		if st, text, err := plan(t, Planner{}, ctx, in); !errors.Is(err, context.Canceled) || st != nil || text != "" {
			t.Fatalf("%.20q: step %+v, text %q, err %v", in, st, text, err)
		}
	}
}

// TestBesides: the prose around a command line, each argv word taken out
// once in order, as strings.Replace did, without its quadratic cost;
// words it cannot find leave the text as it is.
func TestBesides(t *testing.T) {
	for _, tc := range []struct {
		text string
		argv []string
		want string
	}{
		{"执行 ls -la /tmp 然后删除", []string{"ls", "-la", "/tmp"}, "执行       然后删除"},
		{"用ls命令删除文件", []string{"ls", "-la"}, "用 命令删除文件"},
		{"ls -la -la -la", []string{"ls", "-la", "-la", "-la"}, "       "},
		{"grep 'rm -rf' /x", []string{"grep", "rm -rf", "/x"}, "  ' '  "},
		{"ls a\"b\" c", []string{"ls", "ab", "c"}, "  a\"b\"  "},
		{"", []string{"ls"}, ""},
	} {
		if got := besides(tc.text, tc.argv); got != tc.want {
			t.Errorf("besides(%q, %q) = %q, want %q", tc.text, tc.argv, got, tc.want)
		}
	}
	// Thousands of words not in the text (quotes removed by the split):
	// the search gives up and keeps the text, to be checked as prose.
	text := "ls" + strings.Repeat(` a"b"`, 5000)
	if got := besides(text, splitCommand(text)); !strings.HasSuffix(got, ` a"b"`) {
		t.Fatalf("besides gave %.40q…", got)
	}
}
