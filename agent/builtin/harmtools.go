package builtin

import "strings"

// Programs whose subcommand decides whether they change the system: a
// cluster, a cloud account, a certificate, a queue, a database or a
// checkout ("kubectl drain node-3", "aws s3 rm …", "certbot renew",
// "rabbitmqctl purge_queue emails", "redis-cli del k", "UPDATE t SET
// …", "git pull"). Their read-only subcommands ("kubectl get pods",
// "git log") are not refused here; the tiers decide whether they run.
var (
	// reToolHarm is such a program with a changing subcommand, anywhere
	// in the text (a pasted line, a code block, prose around it).
	reToolHarm = compile(`(?i)` +
		`\b(?:kubectl|oc)\s+(?:-{1,2}[\w-]+(?:[= ][\w./:-]+)?\s+)*(?:delete|scale|apply|drain|cordon|uncordon|create|replace|patch|edit|rollout\s+(?:restart|undo)|set|label|annotate|taint|expose|run|exec|cp|autoscale)\b` +
		`|\bhelm\s+(?:install|uninstall|upgrade|rollback|delete)\b` +
		`|\bcertbot\s+(?:renew|certonly|delete|revoke|install|run|register|--(?:nginx|apache|force-renewal))\b|^\s*(?:sudo\s+)?certbot\s*$` +
		`|\brabbitmqctl\s+(?:purge_queue|delete_queue|stop_app|start_app|reset|force_reset|stop|delete_user|add_user|change_password|set_\w+|clear_\w+|delete_vhost|add_vhost)\b` +
		`|\b(?:celery|rq)\b[^\n]{0,40}?\bpurge\b` +
		`|\bredis-cli\b[^\n|;&]{0,60}?\s(?:del|unlink|set|setex|hset|hdel|expire|persist|rename|flushall|flushdb|lpush|rpush|lpop|rpop|sadd|srem|zadd|zrem|incr|decr|config\s+set|shutdown)\s` +
		`|\bdb\.\w+\.(?:insert|update|delete|remove|drop|replace|rename)\w*\s*\(` +
		`|\bupdate\s+[\w."` + "`" + `]+\s+set\s+\w|\binsert\s+into\s+\w|\balter\s+(?:table|user|database|role)\s+\w|\bcreate\s+(?:table|database|user|role|index)\s+\w|\bgrant\s+[\w, ]+\s+on\s` +
		`|\baws\s+[\w-]+\s+(?:rm|mb|rb|mv|cp|sync|delete-[\w-]+|terminate-instances|stop-instances|reboot-instances|put-[\w-]+|create-[\w-]+|update-[\w-]+|modify-[\w-]+)\b` +
		`|\bgcloud\b[^\n|;&]{0,60}?\s(?:delete|create|update|stop|reset|resize|deploy)\b` +
		`|\baz\s+[\w-]+(?:\s+[\w-]+)?\s+(?:delete|create|update|stop|deallocate|restart)\b` +
		`|\blocalectl\s+set-|\bsetenforce\b|\bdaemon-reload\b|\bulimit\s+-\w+\s+(?:\d|unlimited)` +
		`|\b(?:selinux|apparmor)\b[^\n.?!]{0,30}?\b(?:permissive|disabled)\b`)
	// reVCSChange is a git command that changes a checkout: "git pull",
	// "git checkout release-2.3".
	reVCSChange = compile(`(?i)\bgit\s+(?:-C\s+\S+\s+)?(?:pull|checkout|switch|merge|rebase|revert|cherry-pick|am|apply|commit|restore)\b`)
)

// Environment variables and signals.
var (
	// reEnvHarm sets or unsets an environment variable: "export
	// JAVA_OPTS=-Xmx4g", "unset http_proxy".
	reEnvHarm = compile(`(?:^|[\s;&(])(?:export|unset|setenv)\s+(?:[A-Z_][A-Z0-9_]*\b|[a-z]+_[a-z_]+\b|[A-Za-z_]\w*=)`)
	// reSignalHarm sends a signal: "send SIGHUP to nginx", "发 HUP 信号".
	reSignalHarm = compile(`(?i)\bsend\s+(?:a\s+|the\s+)?(?:sig)?(?:hup|term|kill|int|usr1|usr2|quit|stop)\b|(?:发|发送|发个|发一个)\s*(?:SIG)?(?:HUP|TERM|KILL|INT|USR1|USR2|QUIT)\s*信号`)
)

// toolHarm refuses a program's changing subcommand in text (reToolHarm,
// reVCSChange), unless the text asks about it ("what does kubectl drain
// do?") or only asks to see something.
func toolHarm(text string) refusal {
	w := reToolHarm.FindString(text)
	k := toolKind(w)
	if w == "" {
		w, k = reVCSChange.FindString(text), harmPackage
	}
	if w == "" {
		if w, k = reEnvHarm.FindString(text), harmEdit; w == "" {
			w, k = reSignalHarm.FindString(text), harmProcess
		}
	}
	if w == "" || isQuestion(text) || zhQuestion(text) || asksToSee(text) {
		return refusal{}
	}
	return refuseHarm(k, strings.TrimSpace(w))
}

// reToolDelete and reToolService tell what a changing subcommand does,
// for the refusal's words.
var (
	reToolDelete  = compile(`(?i)\b(?:delete\w*|rm|rb|terminate-instances|purge\w*|del|unlink|flush\w*|drop|remove\w*|deleteMany|deleteOne)\b`)
	reToolService = compile(`(?i)\b(?:kubectl|oc|helm)\b`)
)

// toolKind is the kind of change the matched command line w makes.
func toolKind(w string) harmKind {
	switch {
	case reToolDelete.MatchString(w):
		return harmDelete
	case reToolService.MatchString(w):
		return harmService
	}
	return harmEdit
}
