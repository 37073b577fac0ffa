package builtin

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestClassifyCommands covers how command lines are found in prose and
// which ones are refused.
func TestClassifyCommands(t *testing.T) {
	tests := []struct {
		in, tool, args string
	}{
		// Explicit command lines, with politeness around them.
		{"帮我跑一下 free -m", "command_executor", `{"args":["-m"],"command":"free"}`},
		{"麻烦帮我执行一下 ps -ef", "command_executor", `{"args":["-ef"],"command":"ps"}`},
		{"执行命令：ls /tmp", "command_executor", `{"args":["/tmp"],"command":"ls"}`},
		{"can you run free -h for me?", "command_executor", `{"args":["-h"],"command":"free"}`},
		{"run `free -h` please", "command_executor", `{"args":["-h"],"command":"free"}`},
		{"执行 `ls -la`", "command_executor", `{"args":["-la"],"command":"ls"}`},
		{"查看内存（free -h）", "command_executor", `{"args":["-h"],"command":"free"}`},
		{"用free命令看下内存", "command_executor", `{"args":["-h"],"command":"free"}`},
		{"tail -n 20 /var/log/syslog", "command_executor", `{"args":["-n","20","/var/log/syslog"],"command":"tail"}`},
		// Prose about a path.
		{"看下 /var/log/syslog 最后100行", "command_executor", `{"args":["-n","100","/var/log/syslog"],"command":"tail"}`},
		{"first 10 lines of /etc/fstab", "command_executor", `{"args":["-n","10","/etc/fstab"],"command":"head"}`},
		{"grep for ERROR in /var/log/app/app.log", "command_executor", `{"args":["ERROR","/var/log/app/app.log"],"command":"grep"}`},
		{"帮我 grep 一下 /var/log/syslog 里的 oom", "command_executor", `{"args":["oom","/var/log/syslog"],"command":"grep"}`},
		{"看一下 /var/log 目录下有什么", "command_executor", `{"args":["-la","/var/log"],"command":"ls"}`},
		{"cat一下/etc/os-release", "command_executor", `{"args":["/etc/os-release"],"command":"cat"}`},
		// Questions the monitor cannot answer.
		{"看一下各分区的挂载情况", "command_executor", `{"args":["-h"],"command":"df"}`},
		{"which processes are using the most cpu", "command_executor", `{"args":["-eo","pid,user,%cpu,%mem,comm","--sort=-%cpu"],"command":"ps"}`},
		// Prose that only looks like a command line.
		{"find nginx.conf", "semantic_search", ``},
		{"free space left?", "sys_monitor", `{"metric":"disk"}`},
		{"will we run out of disk?", "sys_monitor", `{"metric":"disk"}`},
		// Refusals: substitution, chaining, programs outside the whitelist,
		// destructive prose.
		{"执行 ls `whoami`", "", ``},
		{"ls && reboot", "", ``},
		{"ps aux | sh", "", ``},
		{"在服务器上跑一下 top 看看", "", ``},
		{"用vim打开config.yaml", "", ``},
		{"open config.yaml in vim", "", ``},
		{"uname -a", "", ``},
		{"find / -name '*.log'", "", ``},
		{"把 /tmp 下面的文件都删了", "", ``},
		{"给 deploy.sh 加上执行权限", "", ``},
		{"把 config.yaml 里的端口改成 8081", "", ``},
		{"can you stop the mysql service?", "", ``},
		{"用ls命令删除文件", "", ``},
		{"run ps aux and kill nginx", "", ``},
		{"grep kill /var/log/syslog", "command_executor", `{"args":["kill","/var/log/syslog"],"command":"grep"}`},
		{"execute df -h to see the disks", "command_executor", `{"args":["-h"],"command":"df"}`},
		{"查看内存（free -h）的结果 /etc", "command_executor", `{"args":["-h"],"command":"free"}`},
		// How-to questions are for the documents, not refused.
		{"项目的安装步骤有吗", "semantic_search", ``},
		{"how do I restart nginx", "semantic_search", ``},
	}
	for _, tt := range tests {
		in := Planner{}.Classify(tt.in, true)
		if in.Tool != tt.tool {
			t.Errorf("%q: tool %q (%s %s), want %q", tt.in, in.Tool, in.Kind, in.Reason, tt.tool)
			continue
		}
		if tt.tool == "" && in.Kind != "refuse" && in.Kind != "smalltalk" && in.Kind != "help" {
			t.Errorf("%q: kind %s, want a refusal", tt.in, in.Kind)
		}
		if tt.args != "" {
			b, _ := json.Marshal(in.Args)
			if string(b) != tt.args {
				t.Errorf("%q: args %s, want %s", tt.in, b, tt.args)
			}
		}
	}
}

// TestLongCommandOutputIsShown checks that a command result the registry
// cut for the model is still shown (its beginning), not reported as a
// failure.
func TestLongCommandOutputIsShown(t *testing.T) {
	full, _ := json.Marshal(map[string]any{"command": "ps aux", "exit_code": 0,
		"stdout": "USER PID %CPU\nroot 1 0.0 \"init\"\n" + strings.Repeat("root 2 0.0 kthreadd\n", 2000), "stderr": ""})
	head := string(full[:300])
	cut := head + "\n…[truncated 40000 of 40300 bytes; the full output is kept in the session]…\n" + string(full[len(full)-50:])
	raw, _ := json.Marshal(cut)
	got := describeCommand(true, result{tool: "command_executor", Success: true, Output: raw, cut: true})
	if !strings.Contains(got, "USER PID %CPU") || !strings.Contains(got, `root 1 0.0 "init"`) || strings.Contains(got, "失败") {
		t.Fatalf("got %q", got)
	}
}

// TestCommandKeepsDotPaths: a dot that is a path segment is not sentence
// punctuation ("执行 ls .." ran ls with no arguments, "执行 ls -la
// docs/../.." ran "ls -la docs/../").
func TestCommandKeepsDotPaths(t *testing.T) {
	for in, want := range map[string]string{
		"执行 ls ..":              `{"args":[".."],"command":"ls"}`,
		"执行 ls -la docs/../..":  `{"args":["-la","docs/../.."],"command":"ls"}`,
		"执行 ls .":               `{"args":["."],"command":"ls"}`,
		"执行 ls ./":              `{"args":["./"],"command":"ls"}`,
		"执行 ls docs/.":          `{"args":["docs/."],"command":"ls"}`,
		"执行 ls ..。":             `{"args":[".."],"command":"ls"}`,
		"run ls .. please.":     `{"args":[".."],"command":"ls"}`,
		"run ls ../.. please":   `{"args":["../.."],"command":"ls"}`,
		"ls ..":                 `{"args":[".."],"command":"ls"}`,
		"ls -la ../..":          `{"args":["-la","../.."],"command":"ls"}`,
		"执行 cat /etc/hostname.": `{"args":["/etc/hostname"],"command":"cat"}`,
		"can you run df -h?":    `{"args":["-h"],"command":"df"}`,
		"run ls docs...":        `{"args":["docs"],"command":"ls"}`,
	} {
		in, want := in, want
		t.Run(in, func(t *testing.T) {
			got := Planner{}.Classify(in, true)
			if got.Tool != "command_executor" {
				t.Fatalf("%q → tool %q, want command_executor", in, got.Tool)
			}
			b, _ := json.Marshal(got.Args)
			if string(b) != want {
				t.Errorf("%q → %s, want %s", in, b, want)
			}
		})
	}
}
