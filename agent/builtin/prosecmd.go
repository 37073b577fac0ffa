package builtin

import "strings"

var (
	// reServiceLog asks what a service logged: journalctl -u NAME.
	reServiceLog = compile(`(?i)([\w.@-]+)\s*(?:服务|service)\s*(?:的)?\s*(?:最近|近期)?\s*(?:的)?\s*(?:日志|log)|\b(?:logs?|journal) (?:of|for) the ([\w.@-]+) service\b|\bthe ([\w.@-]+) service log(?:ged)?\b`)
	// reServiceUp asks whether a service runs: systemctl status NAME.
	reServiceUp = compile(`(?i)\bis (?:the )?([\w.@-]+) service (?:up|running|active|alive|down)\b|\bstatus of (?:the )?([\w.@-]+) service\b|([\w.@-]+)\s*服务.{0,4}(?:在(?:运行|跑)|跑着|活着|挂了|状态|起来了)`)
	// reListening asks which ports listen: ss -tlnp.
	reListening = compile(`(?i)端口.{0,6}监听|监听.{0,6}端口|\blistening\b|\bopen (?:sockets|ports)\b|\bports? (?:are )?(?:open|listening)\b`)
	// reDirSize asks how big a directory is: du -sh PATH.
	reDirSize = compile(`(?i)多大|大小|占了?多少(?:空间|磁盘)?|占用(?:了)?多少|\bhow (?:big|large)\b|\b(?:largest|biggest)\b|\bsizes?\b|\bdisk usage of\b|\bspace (?:does|is) .{0,20} (?:use|using|take)`)
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
	case reContainer.MatchString(prose):
		if m := reContName.FindStringSubmatch(prose); m != nil && reLogWord.MatchString(prose) {
			if n := first(m); n != "" {
				return try("container-logs", "docker", "logs", "--tail", "50", n)
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
	case reListening.MatchString(prose):
		return try("listening", "ss", "-tlnp")
	}
	if m := rePath.FindStringSubmatch(text); m != nil && m[1] != "/" && reDirSize.MatchString(prose) && !reFile.MatchString(m[1]) {
		return try("dir-size", "du", "-sh", m[1])
	}
	return nil, ""
}

// reLogWord names logs.
var reLogWord = compile(`(?i)日志|\blogs?\b`)

// stopName are words a name pattern may catch that name no service or
// container.
var stopName = map[string]bool{"the": true, "a": true, "of": true, "this": true, "that": true, "which": true, "what": true, "my": true, "all": true, "running": true, "查看": true, "看一下": true, "看下": true}
