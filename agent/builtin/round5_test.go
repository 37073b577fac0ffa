package builtin

import "testing"

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
