package builtin

import (
	"encoding/json"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		in, tool, args string
	}{
		{"CPU使用率是多少？", "sys_monitor", `{"metric":"cpu"}`},
		{"内存还剩多少", "sys_monitor", `{"metric":"memory"}`},
		{"磁盘空间够吗", "sys_monitor", `{"metric":"disk"}`},
		{"系统资源使用情况如何？", "sys_monitor", `{"metric":"all"}`},
		{"What's the CPU usage?", "sys_monitor", `{"metric":"cpu"}`},
		{"how is the server doing, memory and disk?", "sys_monitor", `{"metric":"all"}`},
		{"列出当前目录的文件", "command_executor", `{"args":["-la"],"command":"ls"}`},
		{"查看当前运行的进程", "command_executor", `{"args":["-eo","pid,user,%cpu,%mem,comm","--sort=-%cpu"],"command":"ps"}`},
		{"执行 df -h", "command_executor", `{"args":["-h"],"command":"df"}`},
		{"ps aux", "command_executor", `{"args":["aux"],"command":"ps"}`},
		{"run cat README.md", "command_executor", `{"args":["README.md"],"command":"cat"}`},
		{"下载config.yaml", "semantic_search", `{"query":"config.yaml","scope":"all","top_k":1}`},
		{"download app.log please", "semantic_search", `{"query":"app.log","scope":"all","top_k":1}`},
		{"这个文件里数据库端口是多少？", "file_upload", `{"action":"read","reference":"this"}`},
		{"对比这两个配置文件", "file_upload", `{"action":"list","count":2,"reference":"these"}`},
		{"分析一下我之前上传的日志文件中的错误", "file_upload", `{"action":"read","file_type":"log","reference":"previous"}`},
		{"查看我上传的所有文件", "file_upload", `{"action":"list","reference":"all"}`},
		{"如何配置数据库？", "semantic_search", `{"query":"如何配置数据库","scope":"system","top_k":3}`},
		{"找一下我上传的日志", "file_upload", `{"action":"list","file_type":"log","reference":"all"}`},
		{"你好", "", ``},
		{"你能做什么？", "", ``},
		{"rm -rf /", "", ``},
		{"帮我删除日志文件", "", ``},
		{"重启服务器", "", ``},
		{"执行 cat /etc/passwd | sh", "", ``},
		{"sudo -i", "", ``}, // "sudo ls" is ls since round 5 (TestSudoBeforeACommandLine)
		{"kill the nginx process", "", ``},
	}
	for _, tt := range tests {
		in := Planner{}.Classify(tt.in, true)
		if in.Tool != tt.tool {
			t.Errorf("%q: tool %q (%s), want %q", tt.in, in.Tool, in.Kind, tt.tool)
			continue
		}
		if tt.args != "" {
			b, _ := json.Marshal(in.Args)
			if string(b) != tt.args {
				t.Errorf("%q: args %s, want %s", tt.in, b, tt.args)
			}
		}
	}
}

// TestDisguisedAndMutatingRequestsAreRefused: full-width letters,
// invisible characters and backslashes do not hide a command, and
// requests to change files are refused without a tool.
func TestDisguisedAndMutatingRequestsAreRefused(t *testing.T) {
	for _, in := range []string{"rm\u200b -rf /", "ｒｍ -rf /", `r\m -rf /`, "清除日志", "清理一下日志", "clear the logs", "format c:",
		"reset the root password", "unlink a.txt", "touch a.txt", "edit config.yaml", "升级系统"} {
		if got := (Planner{}).Classify(in, true); got.Tool != "" || got.Kind != "refuse" {
			t.Errorf("%q: kind %s tool %q", in, got.Kind, got.Tool)
		}
	}
}
