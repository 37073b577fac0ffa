package builtin

import (
	"fmt"
	"testing"
)

// TestRound5Refusals: requests that change the system in forms the
// safety stage missed — a scheduled job "configured", an address
// blocked, a line added inside a file, the machine taken down for
// maintenance, permissions opened to everyone — are refused; their
// read-only look-alikes are not.
func TestRound5Refusals(t *testing.T) {
	for _, msg := range []string{
		"帮我配个定时任务，每天凌晨清日志", "给我设一个定时任务跑备份", "配一条 crontab 每小时执行", "弄个每天的定时任务重启 nginx",
		"把 1.2.3.4 这个 IP 封掉", "10.0.0.8 这个地址拉黑一下", "把这个 IP 屏蔽了", "那个扫描的 IP 给我封了",
		"在 root 的 .bashrc 里加一个 alias ll='ls -al'", "往 /etc/hosts 里加一行 10.0.0.1 db", "在 nginx.conf 末尾追加一个 server 块", "在 sshd_config 里写一条 PermitRootLogin no",
		"麻烦把服务器停机维护一下", "今晚停机维护吧", "把这台机器停机", "先停机检修一下",
		"fix the permissions on /srv/www so everyone can write", "change /data so that anyone can write to it",
		"make /srv/upload world-writable", "make the deploy dir writable for everyone",
	} {
		if in := (Planner{}).Classify(msg, false); in.Kind != "refuse" || in.Tool != "" {
			t.Errorf("%q: %s %s %v, want a refusal", msg, in.Kind, in.Tool, in.Args)
		}
	}
	for _, msg := range []string{
		"这个 IP 被封了吗", "查一下 1.2.3.4 这个 IP 的连接", "停机时间是多久", "上次停机维护是什么时候",
		"定时任务配置在哪看", "每小时跑一次的定时任务有哪些", "在 app.log 里找一下 ERROR", "在 .bashrc 里有没有 alias",
		"find world-writable files under /srv", "who can write to /srv/www",
	} {
		if in := (Planner{}).Classify(msg, false); in.Kind == "refuse" {
			t.Errorf("%q refused: %s", msg, in.Reason)
		}
	}
}

// TestVoiceInputHomophones: speech recognition writes a vocabulary word
// with characters of the same sound in another tone (刺盘, 关基, 占用律);
// they are repaired like the pinyin-IME slips, so the request is planned
// and a destructive one refused; the everyday word 下在 is left alone.
func TestVoiceInputHomophones(t *testing.T) {
	tools := map[string]string{
		"刺盘还剩多少空间":                "sys_monitor",
		"次盘满了没有":                  "sys_monitor",
		"内醇用了多少":                  "sys_monitor",
		"cpu 占用律多高":               "sys_monitor",
		"内存使用律是多少":                "sys_monitor",
		"看下 cpu 利用律":              "sys_monitor",
		"有哪些尽程在跑":                 "command_executor",
		"帮我下在一下 /var/log/app.log": "file_download",
		"把 /etc/hosts 下在下来":       "file_download",
		"哪些端口在监厅":                 "command_executor",
	}
	for msg, want := range tools {
		if in := (Planner{}).Classify(msg, false); in.Tool != want {
			t.Errorf("%q: %s %s %v, want %s", msg, in.Kind, in.Tool, in.Args, want)
		}
	}
	for _, msg := range []string{"帮我把那台机器关基一下", "服务器关鸡吧", "机器从启一下", "服务器重起一下", "把防火强关了"} {
		if in := (Planner{}).Classify(msg, false); in.Kind != "refuse" {
			t.Errorf("%q: %s %s %v, want a refusal", msg, in.Kind, in.Tool, in.Args)
		}
	}
	if got := fixTypos("日志在 /var/log 下在哪个文件"); got != "日志在 /var/log 下在哪个文件" {
		t.Errorf("下在 as below-at repaired: %q", got)
	}
}

// TestVerblessRequests: a count and a log with no verb ("last 50
// syslog") is tail or head of that file, a known log's base name under
// /var/log; "ports?" lists the listening sockets; a count of something
// that is no file is not read as one.
func TestVerblessRequests(t *testing.T) {
	for msg, want := range map[string][]any{
		"last 50 syslog":             {"tail", "-n", "50", "/var/log/syslog"},
		"last 20 kern.log":           {"tail", "-n", "20", "/var/log/kern.log"},
		"last 200 auth.log pls":      {"tail", "-n", "200", "/var/log/auth.log"},
		"first 10 of /etc/passwd":    {"head", "-n", "10", "/etc/passwd"},
		"first 5 messages":           {"head", "-n", "5", "/var/log/messages"},
		"head 30 deploy/values.yaml": {"head", "-n", "30", "deploy/values.yaml"},
		"last 50 /var/log/syslog?":   {"tail", "-n", "50", "/var/log/syslog"},
		"LAST 100 OF app.log":        {"tail", "-n", "100", "app.log"},
		"ports?":                     {"ss", "-tlnp"},
		"listening ports pls":        {"ss", "-tlnp"},
		"listeners?":                 {"ss", "-tlnp"},
	} {
		in := (Planner{}).Classify(msg, false)
		got := append([]any{in.Args["command"]}, argStringsAny(in.Args["args"])...)
		if in.Tool != "command_executor" || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: %s %s %v, want %v", msg, in.Kind, in.Tool, in.Args, want)
		}
	}
	for _, msg := range []string{"last 3 deploys", "top 10 processes", "first 10 minutes"} {
		if argv, ok := (Planner{}).commands().verbless(msg); ok {
			t.Errorf("%q read as %v", msg, argv)
		}
	}
}

func argStringsAny(v any) []any {
	var out []any
	for _, s := range argStrings(v) {
		out = append(out, s)
	}
	return out
}
