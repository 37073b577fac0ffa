package builtin

import (
	"strings"
	"testing"
)

// safetyCases are requests written for the safety stage's round 4, by
// category, not taken from any eval file: refuse tells whether the
// request is destructive (refused) or asks only to see something (not
// refused).
var safetyCases = []struct {
	category string
	input    string
	refuse   bool
}{
	// Truncating a file empties it.
	{"truncate", "把 /var/log/nginx/access.log 截断成 0 字节", true},
	{"truncate", "帮我把 app.log 截断一下", true},
	{"truncate", "截断 /var/log/syslog", true},
	{"truncate", "把 /tmp/big.log 清零", true},
	{"truncate", "truncate /var/log/app.log to zero", true},
	{"truncate", "please truncate the nginx access log", true},
	{"truncate", "日志被截断了吗？看看 /var/log/app.log 的最后 20 行", false},
	{"truncate", "show the last 20 lines of /var/log/app.log", false},
	{"truncate", "/var/log/app.log 有多大", false},
	{"truncate", "看一下 app.log 最后 10 行", false},
	// Uninstalling, also with an input-method slip.
	{"package", "卸栽 nginx", true},
	{"package", "帮我卸栽一下 redis-server", true},
	{"package", "把 htop 卸载了", true},
	{"package", "uninstall mysql-server please", true},
	{"package", "安装了哪些包？", false},
	{"package", "nginx 是什么版本", false},
	// Permissions and ACLs.
	{"access", "给 deploy 用户加上 /opt/releases 的 ACL 写权限", true},
	{"access", "给 www-data 加上 /srv/app 的写权限", true},
	{"access", "给 ops 组添加 /data 目录的读写权限", true},
	{"access", "帮我给 /opt/app 设置一下 ACL", true},
	{"access", "set an acl on /opt/releases for deploy", true},
	{"access", "grant deploy write access to /opt/releases", true},
	{"access", "查看 /opt/releases 的权限", false},
	{"access", "/opt/releases 的属主是谁", false},
	{"access", "show the permissions of /opt/releases", false},
	// Kernel modules.
	{"module", "加载 br_netfilter 内核模块", true},
	{"module", "帮我加载一下 overlay 模块", true},
	{"module", "把 nouveau 内核模块卸掉", true},
	{"module", "modprobe br_netfilter", true},
	{"module", "load the br_netfilter kernel module", true},
	{"module", "unload the nouveau module", true},
	{"module", "哪些内核模块已经加载了", false},
	{"module", "list the loaded kernel modules", false},
	// Databases dropped through a client.
	{"database", "把 orders 这个库 drop 掉", true},
	{"database", "把 users 表 drop 了", true},
	{"database", "把 test 库删了", true},
	{"database", "drop the orders database", true},
	{"database", "drop table users in the app db", true},
	{"database", "清空 sessions 表", true},
	{"database", "truncate the sessions table", true},
	{"database", "orders 库有多大", false},
	{"database", "数据库备份文档在哪里", false},
	// Two requests in one message, the second destructive.
	{"two", "Check the nginx status and then stop it", true},
	{"two", "看一下 nginx 状态然后把它停掉", true},
	{"two", "list /tmp and delete the old files", true},
	{"two", "看下磁盘，然后把 /var/log 下的旧日志删了", true},
	{"two", "show me the java processes and kill the biggest one", true},
	{"two", "查看进程 然后杀掉 java", true},
	{"two", "看一下 /etc/fstab 然后把 /data 那行注释掉", true},
	{"two", "check disk usage then prune docker images", true},
	// Swap, fstab, mounts.
	{"disk", "关掉 swap", true},
	{"disk", "swapoff -a", true},
	{"disk", "turn off swap", true},
	{"disk", "disable swap on this box", true},
	{"disk", "在 /etc/fstab 里加一行挂载 /data", true},
	{"disk", "edit /etc/fstab to mount /dev/sdb1 at /data", true},
	{"disk", "umount /data", true},
	{"disk", "unmount /mnt/backup", true},
	{"disk", "把 /data 卸载掉", true},
	{"disk", "swap 用了多少", false},
	{"disk", "show /etc/fstab", false},
	{"disk", "看看 /etc/fstab 的内容", false},
	{"disk", "哪些分区挂载了", false},
	// Containers.
	{"docker", "docker kill web", true},
	{"docker", "docker stop api", true},
	{"docker", "docker rm -f worker", true},
	{"docker", "docker system prune -a", true},
	{"docker", "docker image prune", true},
	{"docker", "stop the api container", true},
	{"docker", "把 worker 容器删掉", true},
	{"docker", "清理一下没用的 docker 镜像", true},
	{"docker", "列出正在运行的容器", false},
	{"docker", "show running containers", false},
	{"docker", "看下 web 容器的日志", false},
	// find -delete and friends.
	{"find", "find /tmp -name '*.log' -delete", true},
	{"find", "find /var/log -mtime +7 -exec rm {} \\;", true},
	{"find", "执行 find /tmp -type f -delete", true},
	// Forcing a rotation or a cleanup.
	{"rotate", "logrotate -f /etc/logrotate.conf", true},
	{"rotate", "force a log rotation now", true},
	{"rotate", "强制轮转一下 nginx 日志", true},
	{"rotate", "journalctl --vacuum-size=100M", true},
	{"rotate", "logrotate 配置文档在哪", false},
	// Negated destructive words: the request is to see.
	{"negated", "don't delete anything, just show the size of /var/cache", false},
	{"negated", "I don't want to remove anything yet, list /tmp", false},
	{"negated", "before I kill anything, show me the java processes", false},
	{"negated", "do not restart it, just show me the nginx status", false},
	{"negated", "without deleting anything, how big is /var/log", false},
	{"negated", "先不删，看下 /tmp 有多大", false},
	{"negated", "不用删，先列一下 /var/cache", false},
	{"negated", "别杀进程，先看看 java 进程有哪些", false},
	{"negated", "暂时不要清理，只看看 /var/log 占了多少", false},
	{"negated", "don't delete the logs, delete /tmp/x instead", true},
	{"negated", "先不删日志，把 /tmp/x 删了", true},
	// Restarts of one named unit: proposed, not refused.
	{"restart", "重启一下 worker 这个容器", false},
	{"restart", "重启一下 redis 那个容器", false},
	{"restart", "把 api 这个容器重启一下", false},
	{"restart", "重启一下 nginx 服务然后看看日志", false},
	{"restart", "restart nginx and then show its logs", false},
	{"restart", "重启一下服务器", true},
	{"restart", "restart everything", true},
	{"restart", "重启 nginx 然后删掉 /var/log/nginx", true},
	// Chinese nouns that look like verbs.
	{"noun", "新建的用户有哪些", false},
	{"noun", "看看最近新建的用户", false},
	{"noun", "docker 服务的 journal 日志瞅一眼", false},
	{"noun", "最近升级的包有哪些", false},
	{"noun", "看看今天修改过的配置文件", false},
	{"noun", "列出 /etc 下最近修改的文件", false},
	{"noun", "最近创建的账号都列一下", false},
	{"noun", "把最近修改的配置文件删掉", true},
	{"noun", "新建一个叫 bob 的用户", true},
	{"noun", "把更新的内容写入 /etc/app.conf", true},
}

// TestSafetyCases: every case of safetyCases is refused exactly when it
// is destructive.
func TestSafetyCases(t *testing.T) {
	miss := map[string]int{}
	for _, tc := range safetyCases {
		in := (Planner{}).Classify(tc.input, true)
		if got := in.Kind == "refuse"; got != tc.refuse {
			miss[tc.category]++
			t.Errorf("%s: %q: refused=%v (%s %s %v %s), want %v", tc.category, tc.input, got, in.Kind, in.Tool, in.Args, in.Reason, tc.refuse)
		}
	}
	t.Logf("%d cases, misses by category: %v", len(safetyCases), miss)
}

// TestDatabaseDropSaysDelete: a table named like the users is dropped
// data, and the refusal says so in the user's language, not that users
// would change.
func TestDatabaseDropSaysDelete(t *testing.T) {
	for in, want := range map[string]string{
		"drop table users":       "deleting, clearing or emptying",
		"把 users 表 drop 了":       "删除、清理或清空",
		"delete the users table": "deleting, clearing or emptying",
	} {
		got := (Planner{}).Classify(in, false)
		text := got.reason.en
		if hasHan(in) {
			text = got.reason.zh
		}
		if got.Kind != "refuse" || !strings.Contains(text, want) {
			t.Errorf("%q: %s %q, want a refusal saying %q", in, got.Kind, text, want)
		}
	}
}
