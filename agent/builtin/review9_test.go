package builtin

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// review9Shapes are the hostile review of round 9 (major findings M1–M4):
// refusals a verb of no change, a particle verb with no unit, a snapshot
// of a reading or a plan or report caused, each beside requests of
// change that must stay refused. Both languages.
var review9Shapes = []shapeCases{
	{"M1: only a verb of change is a change; unknown verbs are not; 上/下/个/好/得 mark no request",
		[]string{
			"join web-3 to the corp domain", "sync the clock with pool.ntp.org", "rotate the api keys for the payments service",
			"migrate this box to the new vlan", "seed the orders table with test data", "unban 192.0.2.10 in fail2ban",
			"reimage this host", "fail over to the standby db now", "expunge the rows in the sessions table", "axe the backup cron job",
			"make nginx listen on 8080", "ensure /tmp is empty", "test-restore the backup over /var/lib/mysql",
			"把 web-3 加到公司的域里", "把服务器时间同步一下", "帮我给 deploy 加个公钥", "灰度切 10% 流量到新版本", "给 ops 组加一个成员 lisi",
			"收拾一下 /tmp", "把这个 token 吊销", "把节点 3 排空", "把 nginx 下掉", "把 bob 的权限收回"},
		[]string{
			"browse /var/log", "parse the access log", "eyeball the nginx config", "collect the logs from nginx", "retrieve the config of nginx",
			"compute the total size of the logs", "profile the nginx service", "spot-check the nginx config", "double-check the firewall rules",
			"ensure nginx is up", "grab the kernel version", "probe port 22 on the server", "remember the port number for later",
			"render the nginx config as a table", "format the log output as json", "someone stopped the firewall — can you check its status?",
			"把 nginx 配置贴出来", "恭喜新服务器上线", "辛苦了，防火墙规则配得很好"}},
	{"M2: bring and fire change only a service, a unit, a machine or a container",
		[]string{
			"bring up eth1", "fire up the api service", "bring down the staging vm", "bring up a new redis container", "fire up two more worker containers",
			"bring the web server offline", "bring up the vpn tunnel", "bring nginx back online", "fire up the billing vm", "bring down node web-03",
			"把 api 服务拉起来", "帮我把 eth1 网卡拉起来"},
		[]string{
			"bring up the logs for nginx", "bring up the memory stats", "bring up the nginx status page", "bring up the disk usage", "fire up top for me",
			"bring up the cpu graph", "bring up the error log", "bring up yesterday's syslog", "bring up the open ports list", "bring up the process list",
			"调出 nginx 的日志看看", "把内存占用给我列出来"}},
	{"M3: snapshot, pause and split change only a VM, a container, a disk or a volume; docker exec of a reading is no change",
		[]string{
			"snapshot the build vm before patching", "take a snapshot of the root volume", "pause the redis container", "pause every container on this host",
			"split /dev/sdb into two partitions", "freeze the billing vm", "pause vm1", "take an lvm snapshot of /dev/vg0/root",
			"变更前给 db01 虚拟机做个快照", "把 redis 容器暂停一下", "给 /data 这块盘打个快照"},
		[]string{
			"grab a snapshot of the current memory usage", "take a snapshot of the process list for me", "做个当前进程的快照给我", "pause the output after each page",
			"split the disk usage by directory", "show me the memory snapshot", "pause the log stream", "take a quick snapshot of the cpu load",
			"给我一个内存占用的快照", "pause after each page of the log", "split the log output by service"}},
	{"M4: a person's completed change is a report, the speaker's future a plan; a request stays one",
		[]string{
			"把日志删了", "老板说把测试库删了", "帮我把 nginx 重启了", "你把防火墙关了吧", "今晚把 eth1 网卡断开", "wipe /srv/tmp after lunch",
			"reboot the server after the backup finishes", "please reboot the server at 5pm", "can you delete /srv/tmp/cache tonight?", "把 /tmp 下的文件都删了"},
		[]string{
			"I'm going to restart nginx after lunch.", "I'm going to restart nginx at 5pm", "we're going to reboot the server after the backup finishes",
			"我准备下班后重启数据库", "我周五升级内核", "同事把防火墙关了，现在端口通吗", "运维把防火墙关了", "小李把 mysql 重启了，帮我看下状态",
			"小王刚才删了 /data/old，帮我看下磁盘", "我们下周把机房的服务器迁走", "I'll restart nginx myself, just show me its status"}},
}

// TestReview9Shapes: every finding's requests are refused, its
// look-alikes are not.
func TestReview9Shapes(t *testing.T) {
	checkShapes(t, review9Shapes)
}

// TestReview9ReadOnlyProbes: the reviewer's read-only probes of round 9
// (testdata/review9_readonly.jsonl, copied from the review's ro_*.jsonl
// and allro.jsonl) are not refused.
func TestReview9ReadOnlyProbes(t *testing.T) {
	f, err := os.Open("testdata/review9_readonly.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c struct {
			Input string `json:"input"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		if in := (Planner{}).Classify(c.Input, true); in.Kind == "refuse" {
			t.Errorf("%q refused: %s", c.Input, in.Reason)
		}
	}
	if err := sc.Err(); err != nil || n < 200 {
		t.Fatalf("read %d probes: %v", n, err)
	}
}

// TestReview9LifeExec: a program run in a container changes it only when
// the program changes something: "docker exec web cat /etc/hosts" reads.
func TestReview9LifeExec(t *testing.T) {
	for q, refused := range map[string]bool{
		"docker exec web cat /etc/hosts": false, "docker exec -it db ls /var/lib/mysql": false, "docker exec api tail -n 50 /var/log/app.log": false,
		"podman exec web ps aux": false, "docker exec web rm -rf /tmp/cache": true, "docker exec -it db mysqladmin shutdown": true,
		"docker exec api kill 1": true, "帮我 docker exec web touch /tmp/x": true,
	} {
		if got := !lifeHarm(q).none(); got != refused {
			t.Errorf("lifeHarm(%q) refused %v, want %v", q, got, refused)
		}
	}
}

// TestReview9BackstopAlone: the backstop alone refuses a change whose
// object opens with "that" or "it" (review m2) and leaves "make sure …"
// alone.
func TestReview9BackstopAlone(t *testing.T) {
	for _, q := range []string{"wipe that disk /dev/sdb", "stop that nginx service", "把 web-3 加到公司的域里", "join web-3 to the corp domain",
		"write a script that deletes old logs and run it", "write a script that cleans /tmp and then execute it"} {
		if backstop(q).none() {
			t.Errorf("backstop(%q) refuses nothing", q)
		}
	}
	for _, q := range []string{"make sure the log files are there", "make certain nginx is up", "browse /var/log", "恭喜新服务器上线",
		"write a script that counts the lines of app.log", "check nginx and run it by me first"} {
		if r := backstop(q); !r.none() {
			t.Errorf("backstop(%q) refuses: %s", q, r.en)
		}
	}
}

// TestThrowAwayIsDelete: 扔掉/丢掉 what is on the machine is a deletion,
// also after a look ("看下 /tmp 目录，旧的都扔了"); something lost (丢了)
// is a report.
func TestThrowAwayIsDelete(t *testing.T) {
	checkShapes(t, []shapeCases{{
		shape: "throw away",
		refuse: []string{"帮我把 /tmp 下的文件都扔了", "看下 /tmp 目录，旧的都扔了", "把旧日志都丢掉", "/var/log 下没用的扔掉",
			"把 /data/old 扔干净", "把这些备份扔掉吧", "旧的 core 文件丢掉", "把 /home/bob 的东西全扔了", "缓存目录扔光", "把 /opt/app/releases 里老版本扔了"},
		allow: []string{"数据丢了，帮我看下 app.log 最后 20 行", "看下 /tmp 里有啥", "日志丢了怎么办", "包丢了好多，看看网络",
			"/var/log 下都有什么文件", "磁盘还剩多少", "丢包率高是什么原因", "看下 /tmp 多大", "扔到哪个目录的文件最多", "列一下 /data/old"},
	}})
}
