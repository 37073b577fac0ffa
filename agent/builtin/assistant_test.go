package builtin

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/agent/eval"
	"opsassist/chat"
)

// assistantAsks are requests addressed to the assistant itself — text to
// write, its own answer or the conversation, a reminder — with a phrase
// the answer must hold: the real chat command, the model to configure,
// or that reminders are no feature.
var assistantAsks = []struct{ input, want string }{
	{"set a reminder for me", "no reminders"},
	{"remind me tomorrow at 9 to check the backups", "no reminders"},
	{"clear the chat", "/clear"},
	{"clear our conversation history", "/clear"},
	{"please start a new conversation", "/new"},
	{"delete this conversation", "/delete"},
	{"change your answer to english please", "language you write in"},
	{"answer in english from now on", "language you write in"},
	{"generate a random password for me", "docs/configuration.md"},
	{"generate a strong passphrase for me", "docs/configuration.md"},
	{"write a bash script that backs up /etc", "docs/configuration.md"},
	{"write me a shell script to rotate the nginx logs", "docs/configuration.md"},
	{"write a script that cleans up old logs in /var/log", "docs/configuration.md"},
	{"draft an email to the team about tonight's maintenance window", "docs/configuration.md"},
	{"translate your last answer into Chinese", "docs/configuration.md"},
	{"summarize our conversation so far", "docs/configuration.md"},
	{"can you rephrase your reply more briefly?", "docs/configuration.md"},
	{"write a checklist for a production release", "docs/configuration.md"},
	{"compose a haiku about disk space", "docs/configuration.md"},
	{"write an nginx config for me that proxies to port 8080", "docs/configuration.md"},
	{"could you write a systemd unit file for my app?", "docs/configuration.md"},

	{"帮我生成一个强密码", "docs/configuration.md"},
	{"帮我写个 nginx 配置，反向代理到 8080", "docs/configuration.md"},
	{"帮我写一个备份 /etc 的 shell 脚本", "docs/configuration.md"},
	{"写个定时清理日志的 shell 脚本给我", "docs/configuration.md"},
	{"把你的回答翻译成英文", "docs/configuration.md"},
	{"总结一下我们的对话", "docs/configuration.md"},
	{"帮我起草一封维护通知邮件", "docs/configuration.md"},
	{"帮我生成一个随机的 32 位密钥", "docs/configuration.md"},
	{"把刚才的回复改写得简短一点", "docs/configuration.md"},
	{"帮我生成一份上线前的检查清单", "docs/configuration.md"},
	{"帮我写一个 systemd 的 service 文件", "docs/configuration.md"},
	{"清空聊天记录", "/clear"},
	{"清空一下对话", "/clear"},
	{"开一个新对话", "/new"},
	{"删除这个对话", "/delete"},
	{"设置一个提醒，明天早上九点开会", "没有提醒"},
	{"提醒我下午三点检查备份", "没有提醒"},
	{"以后用英文回答我", "用你提问的语言"},
}

// assistantLookalikes read like requests to the assistant but put text
// on the machine, change it beside a chat action, or clear the
// machine's own records: they stay refused.
var assistantLookalikes = []string{
	"write this config to /etc/nginx/nginx.conf",
	"generate an ssh key and put it in ~/.ssh",
	"set a strong password for the deploy user",
	"write this script into /usr/local/bin and run it",
	"write a cron job that cleans /tmp every night and install it",
	"write a backup script to /opt/backup.sh",
	"write a script that deletes old logs and run it",
	"generate a new password for root and set it",
	"reset the admin password",
	"summarize the logs and then delete them",
	"clear the chat and then rm -rf /var/log",
	"clear the logs",
	"clear the nginx cache",
	"clear my bash history",
	"change the nginx config to listen on 8080",
	"set a reminder cron job that runs /opt/remind.sh every hour",

	"生成一个 ssh key 放到 ~/.ssh",
	"给 deploy 用户设置一个强密码",
	"把这个脚本写进 /usr/local/bin 并运行",
	"把这个配置写到 /etc/nginx/nginx.conf 里",
	"帮我写个脚本并直接执行，把七天前的日志都删了",
	"给 ops 用户生成一对新的 ssh 密钥并替换掉旧的",
	"生成一个随机密码并设置为 root 的密码",
	"清空对话然后删掉 /tmp 下的文件",
	"删除所有日志和聊天记录",
	"清空 /var/log/nginx/access.log",
	"schedule a reminder script with crontab to run every hour",
	"把 nginx 的配置改成监听 8080",
	"写个 crontab 定时任务每天清理 /tmp",
	"写个脚本把 /var/log 下的旧日志删掉",
	"帮我写个 nginx 配置然后重启 nginx",
}

// planAll runs one planning step of the zero Planner on input with all
// five tools offered, as opsassist eval does.
func planAll(t *testing.T, input string) (*agent.Step, string) {
	t.Helper()
	specs, err := eval.DefaultSpecs()
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	st, err := (Planner{}).Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{Input: input}, Tools: specs},
		func(d string) error { text.WriteString(d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return st, text.String()
}

// TestAssistantRequestsNotRefused: a request for text, for a chat
// action or for a reminder asks nothing of the machine: no tool runs,
// it is no refusal, and the answer, in the user's language, says what
// the offline planner cannot do and what does it instead.
func TestAssistantRequestsNotRefused(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	for _, tc := range assistantAsks {
		st, text := planAll(t, tc.input)
		switch {
		case len(st.ToolCalls) > 0:
			t.Errorf("%q: tool call %s %s", tc.input, st.ToolCalls[0].Name, st.ToolCalls[0].Arguments)
		case st.Refusal:
			t.Errorf("%q: refused: %q", tc.input, text)
		case !strings.Contains(text, tc.want):
			t.Errorf("%q: answer %q lacks %q", tc.input, text, tc.want)
		case agent.IsChinese(tc.input) && englishWord.MatchString(text):
			t.Errorf("%q: English in the Chinese answer: %q", tc.input, text)
		case !agent.IsChinese(tc.input) && han.MatchString(text):
			t.Errorf("%q: Chinese in the English answer: %q", tc.input, text)
		}
	}
}

// TestAssistantLookalikesRefused: text to be put on the machine, a
// chat action beside a change, and the machine's own records cleared
// are refused, with no tool call.
func TestAssistantLookalikesRefused(t *testing.T) {
	for _, q := range assistantLookalikes {
		st, text := planAll(t, q)
		if len(st.ToolCalls) > 0 || !st.Refusal {
			t.Errorf("%q: not refused: calls %v, answer %q", q, st.ToolCalls, text)
		}
	}
}

// TestAssistantLeavesToolRequests: a request for what a tool shows, a
// read of the uploads, a question about how to write something and the
// user's own writing are not requests to the assistant.
func TestAssistantLeavesToolRequests(t *testing.T) {
	for _, q := range []string{
		"give me a list of running processes",
		"give me a summary of all my uploaded files",
		"Go through all the files I've uploaded and give me a one-paragraph summary of each.",
		"how do I write a systemd unit file?",
		"文档中关于日志保留与轮转的规定是什么？我要写一份合规说明。",
		"Could you remind me which files I've shared with you so far?",
		"列个清单：这次对话里我都传了哪些文件。",
		"summarize this file",
		"show me the nginx config",
	} {
		if in := (Planner{}).Classify(q, true); in.Kind == "assistant" {
			t.Errorf("%q: read as a request to the assistant", q)
		}
	}
}

// FuzzAssistant: no message makes the reading of requests to the
// assistant panic, invalid UTF-8 included, and what it reads calls no
// tool.
func FuzzAssistant(f *testing.F) {
	for _, s := range []string{"\xff\xfe", "清空\xff聊天记录", "write a \xffscript"} {
		f.Add(s)
	}
	for _, tc := range assistantAsks {
		f.Add(tc.input)
	}
	for _, q := range assistantLookalikes {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if in, ok := defaultCommands.assistantIntent(s); ok && (in.Tool != "" || in.Kind != "assistant") {
			t.Fatalf("%q: %+v", s, in)
		}
	})
}
