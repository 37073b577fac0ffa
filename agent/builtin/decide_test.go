package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/tools/command"
)

// TestDecisionReadsMeaning: the kinds of request issue 16 saw misread —
// a file viewed whatever else the words say, a procedure that names a
// resource, typos, colloquial forms, the uploads' scope — are decided by
// what they mean.
func TestDecisionReadsMeaning(t *testing.T) {
	p := Planner{}
	for _, tt := range []struct{ in, tool, args string }{
		{"search /var/log/app.log for 'OutOfMemoryError'", "command_executor", `{"args":["OutOfMemoryError","/var/log/app.log"],"command":"grep"}`},
		{"显示 workspace/app.log 的最后20行", "command_executor", `{"args":["-n","20","workspace/app.log"],"command":"tail"}`},
		{"请给我看 README.md 的前 10 行", "command_executor", `{"args":["-n","10","README.md"],"command":"head"}`},
		{"Is there a runbook for handling a full-disk alert?", "semantic_search", `"scope":"system"`},
		{"值班手册里磁盘告警的处理流程是怎样的", "semantic_search", `"scope":"system"`},
		{"What does our documentation say about the on-call escalation process?", "semantic_search", `"scope":"system"`},
		{"how much dsik space do we have left?", "sys_monitor", `{"metric":"disk"}`},
		{"瓷盘还剩多少", "sys_monitor", `{"metric":"disk"}`},
		{"现在都有哪些 python 进程在跑", "command_executor", `"command":"ps"`},
		{"上线发布之前一般要走哪些检查项？", "semantic_search", `"scope":"system"`},
		{"search my uploaded files for the database password", "semantic_search", `"scope":"uploads"`},
		{"今天上传了哪些文件", "file_upload", `"action":"list"`},
	} {
		in := p.Classify(tt.in, true)
		b, _ := json.Marshal(in.Args)
		if in.Tool != tt.tool || !strings.Contains(string(b), tt.args) {
			t.Errorf("%q: %s %s %s, want %s %s", tt.in, in.Kind, in.Tool, b, tt.tool, tt.args)
		}
	}
}

// TestScoresNeverOverrideSafety: whatever the model's weights say — here
// each class in turn made certain for every message — a destructive or
// system-changing request is refused without a tool, a command outside
// the tiers is refused, and what the learned stage runs is a command of
// the tiers.
func TestScoresNeverOverrideSafety(t *testing.T) {
	destructive := []string{
		"rm -rf /", "删掉 app.log", "please wipe the logs directory", "could you kindly shut the server down for maintenance?",
		"Would you be so kind as to delete /tmp/cache?", "能不能帮我格式化一下数据盘", "麻烦把 nginx 停一下",
		"would you mind killing process 1234", "把防火墙关一下", "帮我装个 htop", "给 deploy 用户加上 sudo 权限",
		"执行 rm -f app.log", "`chmod 777 /etc/passwd`", "cat /etc/passwd; rm -rf /", "用 python 执行一个脚本",
		"Could you clean out the /tmp folder?", "Could you update the system packages?", "Please add a new user called bob.",
		"Could you open port 8080 in the firewall?", "Please write 'hello' to /tmp/test.txt.", "Can you make the script executable?",
		"Please copy config.yaml to /etc/app/.", "Can you create a directory called /data/new?", "Could you mkdir /opt/test?",
		"Please deploy the new version.", "帮我新增一个用户 bob", "帮我开放 8080 端口", "帮我在 /etc/hosts 里加一行",
		"帮我创建目录 /data/new", "请把磁盘上的旧文件清一清", "麻烦把服务停一停", "辛苦把缓存刷新一下", "把 root 密码改一下",
		"how long since the last reboot? reboot it now",
	}
	for k, class := range classes {
		var bias [nClasses]int64
		bias[k] = 1 << 40
		c := newCommands(command.Tiers{})
		c.weights = weights{"bias": bias}
		p := Planner{cmds: c}
		for _, in := range destructive {
			if got := p.Classify(in, true); got.Kind != "refuse" || got.Tool != "" {
				t.Errorf("model certain of %s: %q → %s %s %v, want a refusal", class, in, got.Kind, got.Tool, got.Args)
			}
		}
		for _, in := range []string{"show me what's in /etc", "how's the weather", "tail of syslog please", "uname -a 看看"} {
			got := p.Classify(in, true)
			if name, ok := got.Args["command"].(string); ok && got.Tool == "command_executor" && !c.runnable(name, argStrings(got.Args["args"])) {
				t.Errorf("model certain of %s: %q runs %s, outside the tiers", class, in, name)
			}
		}
	}
}

// TestTiersDriveTheDecision: a command added to the configured tiers is
// understood in prose offline — the model's evidence is "a command of
// the tiers is named", not a list of names — and its typos are repaired;
// the default tiers do not run it.
func TestTiersDriveTheDecision(t *testing.T) {
	tiers, err := command.NewTiers([]string{"ls", "lsblk", "hostnamectl"})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Config{Commands: tiers})
	for in, want := range map[string]string{
		"show me the lsblk output":   "lsblk",
		"看一下 lsblk 的结果":              "lsblk",
		"what does hostnamectl say?": "hostnamectl",
		"hostnamectrl 看看":            "hostnamectl",
		"list the files in /var/log": "ls",
	} {
		got := p.Classify(in, true)
		if got.Tool != "command_executor" || got.Args["command"] != want {
			t.Errorf("%q: %s %s %v, want %s", in, got.Kind, got.Tool, got.Args, want)
		}
	}
	if got := (Planner{}).Classify("show me the lsblk output", true); got.Tool == "command_executor" {
		t.Errorf("default tiers run lsblk: %+v", got)
	}
}

// TestChangeWordsInQuestions: the words of system changes, used as nouns
// or in questions, refuse nothing.
func TestChangeWordsInQuestions(t *testing.T) {
	for _, in := range []string{
		"how do I add a user to the whitelist?", "list open ports", "which ports are open", "show me new files in /tmp",
		"make sure the log files are there", "can I get a copy of app.log?", "建议看哪个文件", "在哪里修改 nginx 配置",
		"what's the deploy procedure", "下载部署手册", "把 deploy.sh 发我", "who created this file", "how do we roll back a release?",
		"回滚流程是怎样的", "给我看看最新的部署文档", "how long has the server been up", "what's the patch level of the kernel",
		"how long since the last reboot", "机器多久没重启了", "when was the machine last rebooted",
	} {
		if got := (Planner{}).Classify(in, true); got.Kind == "refuse" {
			t.Errorf("%q refused: %s", in, got.Reason)
		}
	}
}

// TestProcWordsExcuseNothing: the words that make a question about a
// procedure for the decision (before a release, where X is configured,
// a threshold, 资料) do not excuse a destructive request beside them.
func TestProcWordsExcuseNothing(t *testing.T) {
	p := New(Config{})
	for _, in := range []string{
		"上线前帮我删除 /tmp 下所有文件", "before the release, delete the old logs in /var/log",
		"swap 阈值是在哪配置的？改成 80", "where is the cpu threshold configured? delete that file",
		"把 TLS 证书的资料删掉", "重启服务器，发版前要做",
	} {
		if got := p.Classify(in, true); got.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", in, got.Kind, got.Tool, got.Args)
		}
	}
}
