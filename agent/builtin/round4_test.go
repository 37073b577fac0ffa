package builtin

import (
	"strings"
	"testing"
)

// round4Case is a request of one of the categories round 4 fixed
// (docs/evals.md, "Round 4"), written for this test, none a train case,
// and what the planner must call: the tool and, for a command, its name
// and arguments; for the monitor, its metric; for an upload, its action.
type round4Case struct {
	in, tool, want string
}

func checkRound4(t *testing.T, cases []round4Case) {
	t.Helper()
	for _, tc := range cases {
		in := Planner{}.Classify(tc.in, true)
		got := ""
		switch in.Tool {
		case "command_executor":
			got = in.Args["command"].(string)
			if a := argStrings(in.Args["args"]); len(a) > 0 {
				got += " " + strings.Join(a, " ")
			}
		case "sys_monitor":
			got, _ = in.Args["metric"].(string)
		case "file_upload":
			got, _ = in.Args["action"].(string)
		}
		if in.Tool != tc.tool || got != tc.want {
			t.Errorf("%q: %s %q (%s), want %s %q", tc.in, in.Tool, got, in.Kind, tc.tool, tc.want)
		}
	}
}

// TestLeadingCommandLine: a command line of the tiers followed by prose
// asking to see it runs as written; a program's output asked by name
// runs it.
func TestLeadingCommandLine(t *testing.T) {
	checkRound4(t, []round4Case{
		{"docker ps 看下", "command_executor", "docker ps"},
		{"docker ps 帮我看看", "command_executor", "docker ps"},
		{"ps aux 的结果给我看看", "command_executor", "ps aux"},
		{"systemctl status nginx 看下", "command_executor", "systemctl status nginx"},
		{"df -h 帮我看看", "command_executor", "df -h"},
		{"free -g 看一下", "command_executor", "free -g"},
		{"ls -la /tmp 看看", "command_executor", "ls -la /tmp"},
		{"把 free 的输出给我", "command_executor", "free -h"},
		{"df 命令的结果发我", "command_executor", "df -h"},
		{"journalctl -u nginx 查一下", "command_executor", "journalctl -u nginx"},
		{"执行 fere -h", "command_executor", "free -h"},
		{"run fere -m", "command_executor", "free -m"},
	})
	// A line the tiers refuse is not run; prose that asks for nothing,
	// or a program name followed by prose, is no leading command line.
	if got := (Planner{}).Classify("rm -rf /tmp 看看", true); got.Kind != "refuse" {
		t.Errorf("rm -rf /tmp 看看: %+v, want a refusal", got)
	}
	for _, in := range []string{"docker ps 是什么意思", "docker ps 这个命令我不懂", "free 看看", "top 10 进程", "free memory 看下", "docker ps"} {
		if argv, ok := defaultCommands.leadingCommand(in); ok {
			t.Errorf("leadingCommand(%q) = %q, want none", in, argv)
		}
	}
}

// TestPortsAndJournalInWords: who holds a port is ss; a unit's journal
// named without the word service is journalctl.
func TestPortsAndJournalInWords(t *testing.T) {
	checkRound4(t, []round4Case{
		{"8080 端口被谁占了", "command_executor", "ss -tlnp"},
		{"谁占着 3306 端口", "command_executor", "ss -tlnp"},
		{"5432端口被什么程序占用了", "command_executor", "ss -tlnp"},
		{"what's using port 8080?", "command_executor", "ss -tlnp"},
		{"is port 443 in use?", "command_executor", "ss -tlnp"},
		{"port 9200 is taken, by what?", "command_executor", "ss -tlnp"},
		{"show the journal for sshd", "command_executor", "journalctl -u sshd -n 50"},
		{"pull up the journal of kubelet", "command_executor", "journalctl -u kubelet -n 50"},
		{"看下 docker 的 journal", "command_executor", "journalctl -u docker -n 50"},
	})
}

// TestMachineSlowAndRoom: the machine said to be slow or struggling is
// the monitor's whole picture; room for a size is the disk.
func TestMachineSlowAndRoom(t *testing.T) {
	checkRound4(t, []round4Case{
		{"机器现在卡吗", "sys_monitor", "all"},
		{"服务器最近有点慢", "sys_monitor", "all"},
		{"机器最近很卡，看看怎么回事", "sys_monitor", "all"},
		{"系统今天好像很卡", "sys_monitor", "all"},
		{"电脑一直卡", "sys_monitor", "all"},
		{"is the box struggling a bit today?", "sys_monitor", "all"},
		{"the server seems to be crawling", "sys_monitor", "all"},
		{"the host is choking, what's up?", "sys_monitor", "all"},
		{"do we still have room for a 20 GB backup on this server?", "sys_monitor", "disk"},
		{"is there enough room for a 5GB dump?", "sys_monitor", "disk"},
		{"还有空间放一个 10G 的备份吗", "sys_monitor", "disk"},
	})
}

// TestShortMessages: a message of one or two words names what it asks.
func TestShortMessages(t *testing.T) {
	checkRound4(t, []round4Case{
		{"内存?", "sys_monitor", "memory"},
		{"disk", "sys_monitor", "disk"},
		{"cpu?", "sys_monitor", "cpu"},
		{"磁盘？", "sys_monitor", "disk"},
		{"RAM?", "sys_monitor", "memory"},
		{"负载?", "sys_monitor", "cpu"},
		{"uploads?", "file_upload", "list"},
		{"my uploads", "file_upload", "list"},
		{"attachments?", "file_upload", "list"},
		{"上传的文件？", "file_upload", "list"},
		{"我上传的呢", "file_upload", "list"},
		{"附件", "file_upload", "list"},
		{"any uploads? 🙂", "file_upload", "list"},
		{"进程?", "command_executor", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu"},
	})
	// To upload, or how, is no list of the uploads.
	for _, in := range []string{"upload", "上传", "how do I upload a file?"} {
		if got := (Planner{}).Classify(in, true); got.Tool == "file_upload" {
			t.Errorf("%q: %+v, want no upload listing", in, got)
		}
	}
}

// TestGreetingsAroundRequests: greetings, thanks and emoji around a
// request leave the request.
func TestGreetingsAroundRequests(t *testing.T) {
	checkRound4(t, []round4Case{
		{"hi! 🙂 how's the disk looking?", "sys_monitor", "disk"},
		{"你好，帮我看下内存 😊", "sys_monitor", "memory"},
		{"早上好～ 磁盘还剩多少？", "sys_monitor", "disk"},
		{"hey there, quick one: cpu load?", "sys_monitor", "cpu"},
		{"👋 hello, what files did I upload?", "file_upload", "list"},
		{"嗨 在吗 帮我看看 /var/log/syslog 最后 20 行 🙏", "command_executor", "tail -n 20 /var/log/syslog"},
		{"哈喽～ 我上传的文件有哪些呀 😄", "file_upload", "list"},
		{"thanks in advance 🙏 show me memory usage", "sys_monitor", "memory"},
		{"good morning! 🌞 any processes eating cpu?", "command_executor", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu"},
		{"hello 👋 docker ps 看下，谢谢", "command_executor", "docker ps"},
		{"在吗？机器现在卡吗", "sys_monitor", "all"},
	})
}

// TestTypoSecondSlipRoutes: a second slip in a word still routes.
func TestTypoSecondSlipRoutes(t *testing.T) {
	checkRound4(t, []round4Case{
		{"show me the procceses", "command_executor", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu"},
		{"list all runing procceses", "command_executor", "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu"},
		{"sytem load?", "sys_monitor", "cpu"},
		{"check memmory usage", "sys_monitor", "memory"},
		{"how much stoorage is left", "sys_monitor", "disk"},
		{"sytem status", "sys_monitor", "all"},
		{"memmmory usage?", "sys_monitor", "memory"},
		{"show me the uploadded files", "file_upload", "list"},
		{"dowwnload /var/log/app.log", "file_download", ""},
		{"systemclt status nginx", "command_executor", "systemctl status nginx"},
	})
}

// TestWellKnownFilesAreRead: what is in a well-known system file with no
// extension is its lines; what is in a directory, its listing.
func TestWellKnownFilesAreRead(t *testing.T) {
	checkRound4(t, []round4Case{
		{"what's in /etc/crontab?", "command_executor", "cat /etc/crontab"},
		{"Can you show me what's inside /etc/hosts?", "command_executor", "cat /etc/hosts"},
		{"what's in /etc/fstab", "command_executor", "cat /etc/fstab"},
		{"/etc/hostname 里有什么", "command_executor", "cat /etc/hostname"},
		{"what is in /proc/loadavg?", "command_executor", "cat /proc/loadavg"},
		{"/etc/os-release 有啥", "command_executor", "cat /etc/os-release"},
		{"what's inside /proc/meminfo", "command_executor", "cat /proc/meminfo"},
		{"what is inside /etc/timezone", "command_executor", "cat /etc/timezone"},
		{"what's in /etc/motd?", "command_executor", "cat /etc/motd"},
		{"/etc/environment 里都有啥", "command_executor", "cat /etc/environment"},
		{"what's in /etc/nginx?", "command_executor", "ls -la /etc/nginx"},
		{"what's inside /var/log/nginx", "command_executor", "ls -la /var/log/nginx"},
	})
}

// TestEveryUploadContentAsked: what every upload contains is a read of
// them all, however the content is asked; an earlier upload "given" is
// the previous one.
func TestEveryUploadContentAsked(t *testing.T) {
	checkRound4(t, []round4Case{
		{"what do all my uploads contain?", "file_upload", "read"},
		{"所有上传的文件里都有什么", "file_upload", "read"},
		{"全部上传的文件里面有啥", "file_upload", "read"},
		{"我上传的所有文件都写了什么", "file_upload", "read"},
		{"what's the content of all my uploaded files", "file_upload", "read"},
		{"show me the contents of every file I uploaded", "file_upload", "read"},
		{"summarize all my uploads", "file_upload", "read"},
		{"每个上传的文件分别讲了什么", "file_upload", "read"},
		{"what are the names of all my uploads", "file_upload", "list"},
		{"所有上传文件的大小", "file_upload", "list"},
	})
	for _, in := range []string{"之前给你的那份日志，帮我看看有没有异常", "之前给您的配置文件里端口是多少"} {
		if got := (Planner{}).Classify(in, true); got.Args["reference"] != "previous" {
			t.Errorf("%q: %+v, want the previous upload", in, got)
		}
	}
}

// TestQuotedPatternInPath: a quoted pattern searched in a file by its
// path is grep, whatever words the quote or the aside hold.
func TestQuotedPatternInPath(t *testing.T) {
	checkRound4(t, []round4Case{
		{"search /var/log/kern.log for 'Out of memory: Killed process'", "command_executor", "grep Out of memory: Killed process /var/log/kern.log"},
		{"Which lines of /var/log/kern.log mention 'oom-killer'? I think the kernel killed our process.", "command_executor", "grep oom-killer /var/log/kern.log"},
		{"find 'disk full' in /var/log/syslog", "command_executor", "grep disk full /var/log/syslog"},
		{"look for \"memory leak\" in /srv/app/app.log", "command_executor", "grep memory leak /srv/app/app.log"},
		{"在 /var/log/messages 里搜一下 'cpu throttled'", "command_executor", "grep cpu throttled /var/log/messages"},
		{"/var/log/nginx/error.log 里有没有 “upstream timed out”", "command_executor", "grep upstream timed out /var/log/nginx/error.log"},
		{"does /var/log/auth.log contain 'Failed password'?", "command_executor", "grep Failed password /var/log/auth.log"},
		{"grep for 'process exited' in /var/log/app/worker.log please", "command_executor", "grep process exited /var/log/app/worker.log"},
		{"查找 /var/log/syslog 中的 'load average'", "command_executor", "grep load average /var/log/syslog"},
		{"search /opt/app/logs/gc.log for 'Full GC (Allocation Failure)'", "command_executor", "grep Full GC (Allocation Failure) /opt/app/logs/gc.log"},
	})
}

// TestViewWordsAndFolders: colloquial viewing words read a file; a
// folder named 文件夹 is no "this file".
func TestViewWordsAndFolders(t *testing.T) {
	checkRound4(t, []round4Case{
		{"把 /etc/os-release 整个打出来我瞧瞧", "command_executor", "cat /etc/os-release"},
		{"/etc/hosts 给我瞅瞅", "command_executor", "cat /etc/hosts"},
		{"帮我瞄一眼 /etc/fstab", "command_executor", "cat /etc/fstab"},
		{"/srv/app/config.yaml 打出来看看", "command_executor", "cat /srv/app/config.yaml"},
		{"瞧瞧 /etc/resolv.conf", "command_executor", "cat /etc/resolv.conf"},
		{"帮我列一下 /etc/nginx/conf.d 这个文件夹", "command_executor", "ls -la /etc/nginx/conf.d"},
		{"看看 /var/log 这个文件夹", "command_executor", "ls -la /var/log"},
		{"/opt/releases 这个文件夹里有什么", "command_executor", "ls -la /opt/releases"},
		{"列出 /home/deploy 那个文件夹", "command_executor", "ls -la /home/deploy"},
		{"这个文件里端口是多少", "file_upload", "read"},
	})
}

// TestDocWordsAside: a document word refused or naming the speaker's
// situation governs nothing; a document asked for still does.
func TestDocWordsAside(t *testing.T) {
	checkRound4(t, []round4Case{
		{"How much free memory do we have at this moment? Just the live figure, not a doc.", "sys_monitor", "memory"},
		{"How is the server doing overall? I just joined the on-call rotation and want a quick health snapshot.", "sys_monitor", "all"},
		{"disk usage right now please, no docs", "sys_monitor", "disk"},
		{"I'm on call tonight — how's the cpu?", "sys_monitor", "cpu"},
		{"不要文档，直接告诉我现在内存用了多少", "sys_monitor", "memory"},
		{"我在值班，磁盘还剩多少？", "sys_monitor", "disk"},
		{"not the runbook, the actual disk space left", "sys_monitor", "disk"},
		{"别给我查文档，CPU 现在多少", "sys_monitor", "cpu"},
		{"new to on-call here: what's the memory usage?", "sys_monitor", "memory"},
		{"instead of a wiki page, just show the load", "sys_monitor", "cpu"},
	})
	for _, in := range []string{"Is there a runbook for a full disk?", "值班手册里磁盘告警的处理流程是怎样的", "what's our on-call escalation policy for disk alerts?"} {
		if got := (Planner{}).Classify(in, true); got.Tool != "semantic_search" {
			t.Errorf("%q: %+v, want a document search", in, got)
		}
	}
}

// TestRelativePathIsTheServers: a file named with a directory is the
// server's, not an upload, even with uploads in the conversation, a
// line count in Chinese numerals, or "刚发完版" (just released) beside it.
func TestRelativePathIsTheServers(t *testing.T) {
	checkRound4(t, []round4Case{
		{"刚发完版，帮我瞄一眼 workspace/app.log 最后二十行有没有报错。", "command_executor", "tail -n 20 workspace/app.log"},
		{"workspace/app.log 最后 50 行", "command_executor", "tail -n 50 workspace/app.log"},
		{"show me the last 20 lines of workspace/app.log", "command_executor", "tail -n 20 workspace/app.log"},
		{"刚发布完，看下 logs/app.log 最后三十行", "command_executor", "tail -n 30 logs/app.log"},
		{"瞄一眼 workspace/app.log 前十行", "command_executor", "head -n 10 workspace/app.log"},
		{"给我看 conf/app.yaml 的前五行", "command_executor", "head -n 5 conf/app.yaml"},
		{"workspace/app.log 里 grep 一下 ERROR", "command_executor", "grep ERROR workspace/app.log"},
		{"cat workspace/README.md for me", "command_executor", "cat workspace/README.md"},
		{"显示 deploy/run.log 的最后二十行", "command_executor", "tail -n 20 deploy/run.log"},
		{"open logs/error.log and show the last 15 lines", "command_executor", "tail -n 15 logs/error.log"},
		{"刚发的那个日志最后 10 行", "file_upload", "read"},
	})
}
