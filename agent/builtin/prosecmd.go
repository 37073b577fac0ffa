package builtin

import "strings"

var (
	// reServiceLog asks what a service logged: journalctl -u NAME.
	reServiceLog = compile(`(?i)([\w.@-]+)\s*(?:服务|service|unit|svc)\s*(?:的)?\s*(?:最近|近期|今天|今日|昨天|昨晚|本周|这周)?\s*(?:的)?\s*(?:journal\s*)?(?:日志|log|journal)|\b(?:logs?|journal) (?:of|for) the ([\w.@-]+) (?:service|unit)\b|\bthe ([\w.@-]+) (?:service|unit) (?:log(?:ged)?|journal)\b|\bjournal (?:of|for) (?:the )?([\w.@-]+)|([\w.@-]+)\s*的\s*journal`)
	// reServiceUp asks whether a service runs: systemctl status NAME.
	reServiceUp = compile(`(?i)\bis (?:the )?([\w.@-]+) service (?:up|running|active|alive|down)\b|\bstatus of (?:the )?([\w.@-]+) (?:service|svc)\b|([\w.@-]+)\s*服务.{0,4}(?:在(?:运行|跑)|跑着|活着|挂了|状态|起来了)`)
	// reServiceName is a service named with the word service (unit,
	// daemon); reServiceAct what is asked of it: restarted, reloaded,
	// or whether it runs — systemctl restart|reload|status NAME.
	reServiceName = compile(`(?i)([A-Za-z][\w.@-]*)\s*(?:服务(?:[^器]|$)|\b(?:service|unit|daemon|svc)\b)|\bservice\s+([A-Za-z][\w.@-]*)`)
	reStatusWord  = compile(`(?i)状态|活着|在跑|跑着|在运行|运行着|起着|起来|挂了|\b(?:status|active|running|alive|up|down|dead|systemctl)\b`)
	// reFailedUnits asks which services failed, naming none: systemctl
	// --failed ("帮我看看哪些服务挂了", "can u see if any services failed").
	reFailedUnits = compile(`(?i)(?:哪些|哪个|什么|有没有|有无|几个|多少)\s*(?:服务|单元|unit)\s*(?:是)?(?:挂了|挂掉了|失败|起不来|没起来|启动失败|异常|down|failed)|(?:服务|单元).{0,4}(?:有没有|有哪些|哪些|几个)\s*(?:挂|失败|异常)|\b(?:any|which|what|list|show)\s+(?:the\s+|of\s+the\s+)?(?:services?|units?|daemons?)\s+(?:have\s+|has\s+|are\s+|is\s+|that\s+)?(?:failed|failing|crashed|dead|down)\b|\bfailed\s+(?:services|units|systemd\s+units)\b`)
	// reDaemonLog asks for a well-known daemon's recent log without the
	// word service: "帮我查查 nginx 最近的日志" → journalctl -u nginx.
	reDaemonLog = compile(`(?i)(?:^|[^\w./-])(` + daemonNames + `)\s*(?:最近|近期|今天|今日|昨天|昨晚|本周|这周)?\s*(?:的)?\s*(?:日志|\blogs?\b)`)
	// reWhoActed asks who restarted, stopped or started a service: its
	// journal tells ("who restarted the nginx svc this morning").
	reWhoActed = compile(`(?i)\bwho\s+(?:restarted|stopped|started|reloaded|killed|bounced)\b|谁.{0,6}(?:重启|停|启动|关)`)
	// reListening asks which ports listen: ss -tlnp.
	reListening = compile(`(?i)端口.{0,6}监听|监听.{0,6}(?:端口|socket)|\blistening\b|\bopen (?:sockets|ports)\b|\bports? (?:are )?(?:open|listening)\b|\bsockets\b|\d+\s*(?:号)?端口.{0,4}(?:被)?(?:谁|什么|哪个|啥).{0,6}(?:占|用)|(?:谁|什么|哪个|啥).{0,8}(?:占|用)着?.{0,4}\d+\s*(?:号)?端口|\b(?:what|who|which \w+)(?:'s| is)? (?:using|listening on|bound to|holding|occupying) (?:port )?:?\d+|\bport :?\d+ (?:is )?(?:in use|taken|occupied|busy)\b`)
	// reDirSize asks how big a directory is: du -sh PATH.
	reDirSize = compile(`(?i)多大|大小|占了?多少(?:空间|磁盘)?|占用(?:了)?多少|最占(?:空间|地方|磁盘)|占(?:空间|地方)最|\b(?:taking|take|takes|using|eating) (?:up )?(?:the )?most (?:space|room|disk)\b|\bhow (?:big|large)\b|\b(?:largest|biggest)\b|\bsizes?\b|\bdisk usage of\b|\bspace (?:does|is) .{0,20} (?:use|using|take)`)
	// reContainer names containers: docker ps, docker logs NAME.
	reContainer = compile(`(?i)容器|\bcontainers?\b`)
	reContName  = compile(`(?i)([\w.-]+)\s*容器|\b(?:the )?([\w.-]+) container\b`)
)

// proseCommand is the command of the tiers a request describes in
// words rather than names ("看一下 mysql 服务的日志" → journalctl -u mysql,
// "哪些端口在监听" → ss -tlnp, "/var/lib/docker 这个目录有多大" → du -sh
// /var/lib/docker, "list running containers" → docker ps), and the
// concept's name; nil when it describes none, or the tiers would not
// run it — the configured tiers decide what is offered.
func (c *commands) proseCommand(text string) ([]string, string) {
	prose := names(text)
	first := func(m []string) string {
		for _, s := range m[1:] {
			if s != "" && !stopName[strings.ToLower(s)] {
				return s
			}
		}
		return ""
	}
	try := func(concept string, argv ...string) ([]string, string) {
		if c.runnable(argv[0], argv[1:]) {
			return argv, concept
		}
		return nil, ""
	}
	switch {
	case reFailedUnits.MatchString(prose):
		return try("failed-units", "systemctl", "--failed")
	case reContainer.MatchString(prose):
		if m := reContName.FindStringSubmatch(prose); m != nil {
			switch n := first(m); {
			case n == "":
			case reLogWord.MatchString(prose):
				return try("container-logs", "docker", "logs", "--tail", "50", n)
			case reRestart.MatchString(prose):
				return try("container-restart", "docker", "restart", n)
			}
		}
		return try("containers", "docker", "ps")
	case reServiceLog.MatchString(prose):
		if n := first(reServiceLog.FindStringSubmatch(prose)); n != "" {
			return try("service-log", "journalctl", "-u", n, "-n", "50")
		}
	case reServiceUp.MatchString(prose):
		if n := first(reServiceUp.FindStringSubmatch(prose)); n != "" {
			return try("service-status", "systemctl", "status", n)
		}
	case reServiceName.MatchString(prose):
		if n := first(reServiceName.FindStringSubmatch(prose)); n != "" && !notUnits[strings.ToLower(n)] {
			switch {
			case reWhoActed.MatchString(prose):
				return try("service-log", "journalctl", "-u", n, "-n", "50")
			case reRestart.MatchString(prose):
				return try("service-restart", "systemctl", "restart", n)
			case reReload.MatchString(prose):
				return try("service-reload", "systemctl", "reload", n)
			case reLogWord.MatchString(prose) && absPath(text) == "":
				return try("service-log", "journalctl", "-u", n, "-n", "50") // "mysql 服务今天报了什么错，看下它的日志"
			case reStatusWord.MatchString(prose):
				return try("service-status", "systemctl", "status", n)
			}
		}
	case reDaemonLog.MatchString(prose) && absPath(text) == "":
		return try("service-log", "journalctl", "-u", reDaemonLog.FindStringSubmatch(prose)[1], "-n", "50")
	}
	switch {
	case reListening.MatchString(prose):
		return try("listening", "ss", "-tlnp")
	}
	if p := absPath(text); p != "" && p != "/" && reDirSize.MatchString(prose) && !reFile.MatchString(p) {
		return try("dir-size", "du", "-sh", p)
	}
	return nil, ""
}

// reLogWord names logs.
var reLogWord = compile(`(?i)日志|\blogs?\b`)

// stopName are words a name pattern may catch that name no service or
// container.
var stopName = words(`the a an of this that which what my all running its your our their
	restart reload status check is are systemctl up down ok fine alive dead now still
	level levels account accounts desk mesh 查看 看一下 看下`)

// daemonNames are well-known daemons, whose log is their journal even
// when the word service is left out.
const daemonNames = `nginx|apache2|httpd|mysqld?|mariadb|postgresql|postgres|redis|redis-server|mongod|sshd|docker|containerd|kubelet|crond|rsyslog|haproxy|php-fpm|tomcat|elasticsearch|kafka|zookeeper|memcached|named|chronyd|firewalld`
