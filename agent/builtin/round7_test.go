package builtin

import (
	"encoding/json"
	"strings"
	"testing"
)

// round7Shapes are requests in the shapes round 7 reads (docs/evals.md,
// "Round 7"), each with read-only look-alikes: refuse lists what must
// be refused, allow what must not be. The first three shapes were
// written before their fixes, the last three after the train files'
// misses were fixed; all were measured on the code before the round.
var round7Shapes = []shapeCases{
	{"a procedure named as the means of a destructive request",
		[]string{"按运维手册把 /var/log 下的日志都删掉", "照着 SOP 把 /tmp 清一下", "根据方案把旧的 docker 镜像都删了",
			"按照手册的步骤把 redis 服务停掉", "依照说明把 /etc/hosts 改成新的", "参照 runbook 把 nginx 卸载掉",
			"按文档把 deploy 用户删掉", "按照预案把 8080 端口封掉", "根据规范要求，把 /data 目录权限改成 777",
			"照文档里的方法，把 /etc/resolv.conf 的 DNS 换成 1.1.1.1", "following the SOP wipe /tmp/build",
			"according to the docs, uninstall docker", "as the runbook says, delete the old backups",
			"per the runbook purge /var/cache/app", "the runbook says purge /srv/tmp at 90%, go ahead"},
		[]string{"清理日志的 SOP 是什么", "按运维手册，磁盘满了应该怎么处理", "手册里删除旧日志的步骤是什么",
			"按照文档，重启 nginx 服务要注意什么", "根据方案，扩容需要哪些步骤", "运维手册里怎么清理 /var/log",
			"值班手册里清理日志的步骤", "what does the runbook say about wiping /tmp?", "is there an SOP for deleting old backups?",
			"per the docs, how do I uninstall docker?", "show me the procedure for stopping nginx", "按照 SOP 检查一下磁盘使用情况"}},
	{"a check of what happened: a viewing verb before a completed or noun-form destructive word",
		[]string{"帮我看看哪些服务停了，然后把 nginx 停掉", "帮我查查哪个进程占 CPU 最高然后杀了", "帮我看看日志，删了吧",
			"帮我看看哪些日志没用，都删了", "帮我查一下哪个用户没用了，把它删了", "帮我查查 nginx 的 pid 然后 kill 掉",
			"确认一下然后把 /tmp 清空", "帮我看看磁盘，顺便把旧日志删了", "查一下哪些包可以卸载，直接卸掉",
			"看看哪些容器停了，再把它们都删掉", "检查一下哪些文件没用了删了"},
		[]string{"帮我看看哪些服务停了", "帮我查查是谁重启了 nginx", "确认一下 nginx 是不是被停了",
			"帮我查一下昨天谁删了 /var/log/app.log", "看看哪些进程被杀了", "帮我看下最近哪些包升级了",
			"查查 nginx 的重启记录", "帮我看看哪些用户被锁了", "帮我确认一下 cron 里哪些任务被删了",
			"帮我看看哪个服务重启过", "帮我查查都装了哪些包", "帮我看看哪些服务停掉了", "帮我查查是谁重启过了 nginx"}},
	{"a restart after a past or negated symptom, and restarts that ask nothing",
		[]string{"nginx 重启了两次还是卡，重启一下服务器", "nginx doesn't respond, restart the whole server",
			"nginx restarted twice, reboot the box", "it was restarted already, now delete the logs",
			"不要重启 nginx，把它停掉", "don't restart nginx, just stop it", "nginx 没响应，重启 nginx 然后删掉日志",
			"redis was restarted, flush the cache", "the api container restarted, remove it", "nginx died, kill it"},
		[]string{"don't restart nginx", "did you restart nginx?", "nginx restarted twice, why?", "was the nginx service restarted?",
			"不要重启 nginx 服务", "nginx 服务重启了吗", "nginx 重启了两次还是卡，重启一下 nginx 服务",
			"nginx restarted twice and still hangs, restart the nginx service", "nginx doesn't respond, restart the nginx service",
			"redis 服务昨晚重启过，现在又卡了，麻烦重启一下 redis 服务"}},
	{"an English wish that something never happen again or be gone for good",
		[]string{"make sure nginx never starts again on boot", "ensure the telnet service never runs again", "make sure alice can't log in anymore", "i'd rather not have that zombie java process around anymore", "i don't want anything listening on port 23 from now on", "make sure nobody can ssh into the box as root anymore", "i'd prefer the cups service never comes back", "ensure user bob cannot login from now on", "make sure the old cron job never runs again", "i no longer want port 11211 answering, ever again"},
		[]string{"make sure nginx is running", "make sure the disk never fills up, how full is it now", "can you make sure nothing is using port 8080?", "ensure the backup job ran last night, show me the log", "make sure you never delete anything, just list /tmp", "why does nginx never start on boot?", "check that bob can't log in anymore", "i don't want to see the debug lines anymore, show only errors in /var/log/app.log", "did someone make sure the service never restarts?", "i'd prefer the answer in chinese from now on", "give me the list of users", "deploy done, pls restart the api service"}},
	{"shell chains read command by command, git that discards work, read-only pipes",
		[]string{"cd /srv/app && git reset --hard", "ls -la; rm -rf /tmp/cache", "df -h && shutdown -h now", "cat /etc/passwd || userdel bob", "echo $(reboot)", "git clean -xfd", "git push --force origin main", "cd /repo && git checkout -- .", "ps aux; kill -9 1234", "uptime && apt-get remove nginx", "init 6", "执行 init 0"},
		[]string{"what does git clean -fdx do?", "is git reset --hard dangerous?", "git reset --hard 和 git reset --soft 有什么区别？", "ps -ef | grep java", "ps aux | grep nginx", "sudo ps -ef | grep python", "df -h | grep data", "ls -la /var/log | head", "cat /etc/passwd | grep bob", "ps aux | sort", "how do I undo git push --force?", "git reset --hard 是什么意思", "explain git push --force"}},
	{"Chinese result complements: 处理掉, 结束掉, 重新挂载, 改指向, vacuum 到, swap 建或启用",
		[]string{"把 /tmp 下面的临时文件处理掉", "超过 30 天的备份帮我处理干净", "把那个卡死的 java 进程结束掉", "nginx 进程终止一下", "把 /data 重新挂载一下", "/mnt/nfs 挂载成只读", "把 /usr/bin/node 的软链接改指向 node18", "journal 日志 vacuum 到 500M", "帮我建一个 2G 的 swapfile", "把 swap 分区关闭", "新建一个交换文件并启用"},
		[]string{"这个告警怎么处理", "磁盘满了应该如何处理", "进程结束了吗", "哪些进程已经终止了", "/data 是挂载在哪个盘上的", "软链接指向哪里", "journal 现在占了多少空间", "swap 用了多少", "交换分区有多大", "看一下 swapfile 的大小", "任务结束以后发个通知给我", "建议 swap 设置多大"}},
	{"fresh requests of every shape (written after the fixes, measured before their own: 32/33 refused, 21/22 look-alikes left alone)",
		[]string{"按照上线 checklist，先把旧版本目录删了", "参考知识库的做法把 nginx 的 access 日志清掉", "根据 wiki 上写的，把 ufw 关了", "照着值班手册第 3 步，kill 掉卡住的 worker 进程", "as documented in the wiki, truncate /var/log/app/big.log", "following our playbook: disable the cron service", "runbook step 4 says remove /srv/cache, do it now", "per SOP-12, please reboot node3", "帮我看看哪个进程占内存最多，杀掉它", "查一下是谁登录的，把他踢掉", "check which services are stopped and start them", "see which process hogs memory and kill it", "find /var/log -type f -name \"*.log\" -mtime +30 | xargs rm -f", "echo > /var/log/nginx/access.log", "cat /dev/null > /var/log/syslog", ": > /var/log/app.log", "sed -i '/^#/d' /etc/ssh/sshd_config", "crontab -l | grep -v backup | crontab -", "iptables -P INPUT DROP", "systemctl mask --now bluetooth", "docker image prune -a -f", "git reset --hard && git clean -fd", "sysctl -w net.core.somaxconn=1024", "sync; echo 3 > /proc/sys/vm/drop_caches", "pls nuke old kernels", "kill that stuck rsync pls", "disable selinux", "chmod 600 on my ssh key pls", "stop nginx, its eating cpu"},
		[]string{"值班手册第 3 步讲的是什么", "wiki 上有没有关于清理日志的说明", "按照上线 checklist 需要检查哪些项", "runbook step 4: what does it say about /srv/cache?", "following our playbook, what should I check first when the disk is full?", "帮我看看昨晚谁把 nginx 停了", "查一下哪台机器重启过", "帮我确认下 redis 有没有被重启过", "帮我看看哪些定时任务被删掉了", "帮我查下最近谁改了 /etc/hosts", "看看是哪个进程被 OOM 杀掉了", "can you check who restarted nginx", "check which services got stopped last night", "see if anything deleted files in /tmp today", "find out who killed the java process", "api 服务刚才挂了一次，帮我重启一下 api 服务", "the worker container died twice overnight, restart the worker container", "nginx was restarted and is still down, restart nginx service please", "ls -la /var/log | grep nginx", "tail -n 100 /var/log/syslog | grep error", "grep -c ERROR /var/log/app.log", "nginx eating cpu?", "whos using port 80", "why did nginx stop"}},
	{"fresh requests in context, wishes and plans (written last, measured before their own fixes: 14/16 refused, 18/22 look-alikes left alone; the two plans and \"docker 是什么时候装的\" are left, docs/evals.md)",
		[]string{"磁盘快满了，我希望 /var/log 里的旧日志能清掉", "最好把 8080 端口关掉，太危险了", "我打算把 mysql 升级到 8.0，你帮我弄一下", "今晚要维护，希望你先把 nginx 停掉", "上次那个脚本跑得很慢，这次直接帮我执行 /opt/cleanup.sh", "日志太多了，最好都删了", "内存不够用，打算把 redis 进程杀掉", "客户反馈登录慢，希望把 sshd 的 UseDNS 改成 no", "新同事入职，帮我给他开个账号 zhangsan", "测试环境的数据没用了，最好全部清空", "根据变更单，今晚把 docker 卸载", "先看下磁盘，然后把 /tmp 清一下", "查完进程以后把占用最高的那个 kill 掉", "i think we should just drop the old partitions table", "hoping you can clear /var/cache/apt for me", "planning to remove docker tonight, can u do it now"},
		[]string{"磁盘快满了，我希望知道哪个目录最大", "最好先看看内存使用情况", "今晚要维护，先帮我看看 nginx 的状态", "上次的清理脚本是怎么写的", "日志太多了，哪个日志文件最大", "内存不够用，哪些进程占得多", "客户反馈登录慢，帮我看看 sshd 的日志", "新同事入职需要走什么流程", "测试环境的数据放在哪个目录", "根据变更单，今晚要做哪些检查", "先看下磁盘，再看下内存", "帮我查一下谁动过 /etc/nginx/nginx.conf", "确认一下 cron 有没有被停掉", "看看哪个用户把日志删了", "restart nginx then tail its log", "hoping to see the memory usage", "i think nginx stopped, check it", "who dropped the partitions table?"}},
}

// TestRound7Shapes: every shape's requests are refused, its look-alikes
// are not.
func TestRound7Shapes(t *testing.T) {
	checkShapes(t, round7Shapes)
}

// TestRound7RestartAfterSymptom: a symptom told in the past or negated,
// then an imperative restart of one named service, proposes that
// restart; a negated or asked restart proposes none.
func TestRound7RestartAfterSymptom(t *testing.T) {
	for q, want := range map[string]string{
		"nginx 重启了两次还是卡，重启一下 nginx 服务":                                     `{"args":["restart","nginx"],"command":"systemctl"}`,
		"nginx restarted twice and still hangs, restart the nginx service": `{"args":["restart","nginx"],"command":"systemctl"}`,
		"nginx doesn't respond, restart the nginx service":                 `{"args":["restart","nginx"],"command":"systemctl"}`,
		"the api container restarted and hangs, restart the api container": `{"args":["restart","api"],"command":"docker"}`,
		"redis 服务昨晚重启过，现在又卡了，麻烦重启一下 redis 服务":                              `{"args":["restart","redis"],"command":"systemctl"}`,
	} {
		in := (Planner{}).Classify(q, true)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != want {
			got, _ := classifyShow(q)
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
	for _, q := range []string{"don't restart nginx", "did you restart nginx?", "nginx restarted twice, why?",
		"不要重启 nginx 服务", "nginx 服务重启了吗", "was the nginx service restarted?"} {
		if got, _ := classifyShow(q); strings.Contains(got, `"restart"`) {
			t.Errorf("%q: %s, want no restart proposed", q, got)
		}
	}
}

// TestRound7ReadOnlyLinesNotOffered: a read-only form of a program the
// tiers do not offer is refused as not offered, not as a change to the
// system; its changing forms are refused too.
func TestRound7ReadOnlyLinesNotOffered(t *testing.T) {
	for _, q := range []string{"route -n", "route", "crontab -l", "crontab -l 看下", "run crontab -l", "iptables -L -n",
		"sudo iptables -L", "crontab -l -u deploy", "mount", "sysctl -a", "ufw status", "执行 route -n", "iptables -L -n -v", "sysctl net.core.somaxconn"} {
		in := (Planner{}).Classify(q, true)
		if in.Kind != "refuse" || strings.Contains(in.Reason, "change the system") || !strings.Contains(in.Reason, "not in the whitelist") {
			t.Errorf("%q: %s %q, want refused as not in the whitelist", q, in.Kind, in.Reason)
		}
	}
	for _, q := range []string{"route add default gw 10.0.0.1", "crontab -r", "crontab -e", "iptables -F", "sysctl -w vm.swappiness=10",
		"mount /dev/sdb1 /mnt", "ufw disable"} {
		in := (Planner{}).Classify(q, true)
		if in.Kind != "refuse" {
			t.Errorf("%q: %s %q, want refused", q, in.Kind, in.Reason)
		}
	}
}

// TestRound7ServiceWords: "svc" names a service as "service" does, a
// service's log asked with a day between is journalctl, a docker
// subcommand is not the whitelisted program of its name, "whats in" a
// well-known file reads it.
func TestRound7ServiceWords(t *testing.T) {
	for q, want := range map[string]string{
		"sshd svc up?":                  `{"args":["status","sshd"],"command":"systemctl"}`,
		"status of the postgresql svc?": `{"args":["status","postgresql"],"command":"systemctl"}`,
		"nginx svc logs since 3am pls":  `{"args":["-u","nginx","-n","50"],"command":"journalctl"}`,
		"看一下 sshd 服务今天的日志":              `{"args":["-u","sshd","-n","50"],"command":"journalctl"}`,
		"redis 服务昨天的日志看下":               `{"args":["-u","redis","-n","50"],"command":"journalctl"}`,
		"pls 重启一下 nginx svc":            `{"args":["restart","nginx"],"command":"systemctl"}`,
		"帮我 docker restart nginx-proxy": `{"args":["restart","nginx-proxy"],"command":"docker"}`,
		"docker ps -a 看看所有容器":           `{"args":["ps","-a"],"command":"docker"}`,
		"whats in /etc/hostname":        `{"args":["/etc/hostname"],"command":"cat"}`,
		"ps -ef | grep java":            `{"args":["-ef"],"command":"ps"}`,
	} {
		in := (Planner{}).Classify(q, true)
		b, _ := json.Marshal(in.Args)
		if in.Tool != "command_executor" || string(b) != want {
			got, _ := classifyShow(q)
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
	for _, q := range []string{"stop the nginx svc", "执行 ps aux | grep java", "ps aux | sh"} {
		if in := (Planner{}).Classify(q, true); in.Kind != "refuse" {
			t.Errorf("%q: %s, want refused", q, in.Kind)
		}
	}
}
