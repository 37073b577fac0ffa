package builtin

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/tools"
)

// hostileShapes build chat texts of n bytes that once made planning
// quadratic: a command with thousands of options, a long path, Chinese
// prose, and a mix; and texts that made every rule scan them whole: many
// paths, file names, backquoted words, or a repeated verb.
var hostileShapes = []struct {
	name string
	make func(n int) string
}{
	{"options", func(n int) string { return "ls" + repeatTo(" -la", n-2) }},
	{"exec-options", func(n int) string { return "执行 ls" + repeatTo(" -l", n-len("执行 ls")) }},
	{"path", func(n int) string { return "cat /" + repeatTo("a", n-5) }},
	{"cjk", func(n int) string { return repeatTo("查看一下磁盘和内存的使用情况，", n) }},
	{"words", func(n int) string { return "show me " + repeatTo("memroy proccess /var/log/syslog ", n-8) }},
	{"paths", func(n int) string { return repeatTo("/a/b/c ", n) }},
	{"files", func(n int) string { return repeatTo("a.yaml b.json ", n) }},
	{"backticks", func(n int) string { return repeatTo("`x` ", n) }},
	{"runs", func(n int) string { return repeatTo("run ", n) }},
}

// repeatTo repeats s to about n bytes.
func repeatTo(s string, n int) string {
	return strings.Repeat(s, max(n, 0)/len(s)+1)[:max(n, 0)/len(s)*len(s)]
}

// BenchmarkPlanPerKB plans the first step of a turn for hostile messages
// of 1 to 64 KB and reports ns per KB of input, which should stay flat:
// planning is linear in the message length. The planner's cap is raised
// to 64 KiB so every size is planned rather than refused.
func BenchmarkPlanPerKB(b *testing.B) {
	p := New(Config{MaxInput: 64 << 10})
	specs := []tools.Spec{{Name: "command_executor"}}
	for _, sh := range hostileShapes {
		for _, kb := range []int{1, 4, 16, 64} {
			in := sh.make(kb << 10)
			b.Run(sh.name+"/"+strconv.Itoa(kb)+"KB", func(b *testing.B) {
				req := &agent.PlanRequest{Turn: &chat.Turn{Input: in}, Tools: specs}
				for b.Loop() {
					if _, err := p.Plan(context.Background(), req, func(string) error { return nil }); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in))*1024, "ns/KB")
			})
		}
	}
}
