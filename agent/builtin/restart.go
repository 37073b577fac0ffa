package builtin

import (
	"strings"
)

// Requests to restart or reload one named service or container, in any
// clause and with a reason around them ("we pushed a new cert, can u
// reload the haproxy service", "重启一下 redis 服务，缓存好像卡住了",
// "麻烦把 mysql 服务重启一下"): the ask tier's systemctl restart|reload
// and docker restart run them once the user confirms, so they are
// proposed, not refused. This file owns that rule: a restart aimed at
// the machine or everything ("重启服务器", "restart everything") names no
// unit and is refused as a reboot; one beside a destructive request
// ("重启 nginx 然后删掉日志") is refused, harmlessBeside deciding.
var (
	reRestartZh = compile(`^(?:请|麻烦|帮我|帮忙|给我|你|能不能|可以|辛苦|劳驾|顺手|再)*\s*(?:` +
		`(重启|重新启动|重载|重新加载|restart|reload)\s*(?:一下|下)?\s*(?:the\s+)?([A-Za-z0-9][\w@.-]*)\s*(?:这个|那个|这|那)?\s*(服务|容器|service|container)?\s*(?:的?配置)?` +
		`|把\s*([A-Za-z0-9][\w@.-]*)\s*(?:这个|那个|这|那)?\s*(服务|容器|service|container)?\s*(?:给)?\s*(重启|重新启动|重载|重新加载|restart|reload)\s*(?:一下|下)?` +
		`)\s*(?:吧|呗|一下)?\s*$`)
	// reRestartWords are the restart words a request may repeat in its
	// reason ("我这边确认过可以重启"), its slips included.
	reRestartWords = compile(`(?i)重启|重起|重新启动|重载|重新加载|\brestart(ed|ing)?\b|\breload(ed|ing)?\b|\bbounce\b`)
)

// unitKinds are the words naming what the name is.
var unitKinds = map[string]string{"service": "service", "unit": "service", "daemon": "service", "svc": "service",
	"服务": "service", "container": "container", "容器": "container"}

// restartConcepts are the concepts of proseCommand (prosecmd.go) that
// restart or reload one named service or container.
var restartConcepts = map[string]bool{"service-restart": true, "service-reload": true, "container-restart": true}

// restartIntent proposes the ask tier's restart (or reload) of the
// service or container text names, if the tiers run it and nothing
// else the text asks is destructive: first clause by clause, then in
// any words naming the unit with the word service or container
// (proseCommand).
func (c *commands) restartIntent(text string) (Intent, bool) {
	if argv, found := c.clauseRestart(text); found {
		if argv == nil {
			return Intent{}, false
		}
		return commandIntent(argv), true
	}
	argv, concept := c.proseCommand(text)
	if !restartConcepts[concept] || !c.harmlessBeside(text, argv[0]) {
		return Intent{}, false
	}
	return commandIntent(argv), true
}

// clauseRestart reads text clause by clause for a restart or reload of
// a named unit: found tells whether one was asked, argv is the command
// proposed, nil when the tiers do not run it or the rest is harmful.
func (c *commands) clauseRestart(text string) (argv []string, found bool) {
	t := inert(text)
	parts := splitClauses(t)
	for i, p := range parts {
		action, name, kind, ok := restartOf(p)
		if !ok || notUnits[strings.ToLower(name)] {
			continue
		}
		switch {
		case kind == "container" && action == "restart":
			argv = []string{"docker", "restart", name}
		case kind == "container":
			continue // a container has no reload
		default:
			argv = []string{"systemctl", action, name}
		}
		if !c.runnable(argv[0], argv[1:]) {
			return nil, true
		}
		rest := strings.Join(append(append([]string{}, parts[:i]...), parts[i+1:]...), "，")
		if !c.harmlessBeside(rest, "") {
			return nil, true
		}
		return argv, true
	}
	return nil, false
}

// harmlessBeside reports whether the rest of a request for a restart or
// a status, without the restart words and the program that runs it
// ("redis 服务还活着没 systemctl 看下"), asks nothing destructive. It is
// the one check of what stands beside a proposed unit command.
func (c *commands) harmlessBeside(rest, program string) bool {
	rest = reRestartWords.ReplaceAllString(rest, " ")
	if program != "" {
		rest = strings.ReplaceAll(rest, program, " ")
	}
	return c.destructive(rest).none()
}

// splitClauses cuts text at sentence punctuation.
func splitClauses(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(",;!?—–\n，。；！？、", r) })
}

// restartOf reads one clause as a restart or reload of a named unit:
// the action, the name and its kind ("service", "container" or "").
func restartOf(clause string) (action, name, kind string, ok bool) {
	if m := reRestartZh.FindStringSubmatch(strings.TrimSpace(strings.TrimRight(clause, ". "))); m != nil {
		verb, name, kind := m[1], m[2], m[3]
		if m[4] != "" {
			verb, name, kind = m[6], m[4], m[5]
		}
		action = "restart"
		if strings.Contains(verb, "载") || strings.EqualFold(verb, "reload") {
			action = "reload"
		}
		return action, name, unitKinds[strings.ToLower(kind)], true
	}
	for _, words := range clauses(clause) {
		if a, n, k, ok := restartWords(words); ok {
			return a, n, k, true
		}
	}
	return "", "", "", false
}

// restartWords reads an English clause's words: politeness, restart or
// reload (a typo allowed), the name with its kind before or after it,
// and nothing destructive after.
func restartWords(words []string) (action, name, kind string, ok bool) {
	i := 0
	for i < len(words) && politeWords[words[i]] {
		i++
	}
	if i+1 >= len(words) {
		return "", "", "", false
	}
	switch w := words[i]; {
	case w == "restart" || w == "bounce" || len(w) >= 6 && oneEdit(w, "restart"):
		action = "restart"
	case w == "reload" || oneEdit(w, "reload"):
		action = "reload"
	default:
		return "", "", "", false
	}
	i++
	if words[i] == "the" && i+1 < len(words) {
		i++
	}
	if k, isKind := unitKinds[words[i]]; isKind && i+1 < len(words) {
		kind, i = k, i+1 // "restart container api"
	}
	name = words[i]
	if !unitName(name) {
		return "", "", "", false
	}
	i++
	if i < len(words) && kind == "" {
		if k, isKind := unitKinds[words[i]]; isKind {
			kind, i = k, i+1
		}
	}
	if !clauseHarm(append([]string{"and"}, words[i:]...)).none() {
		return "", "", "", false
	}
	return action, name, kind, true
}

// unitName reports whether w can name a unit or container.
func unitName(w string) bool {
	if w == "" || !isASCIILetter(w[0]) && (w[0] < '0' || w[0] > '9') {
		return false
	}
	for i := 0; i < len(w); i++ {
		b := w[i]
		if !isASCIILetter(b) && (b < '0' || b > '9') && !strings.ContainsRune("@._-", rune(b)) {
			return false
		}
	}
	_, kind := unitKinds[w]
	return !kind && !articles[w] && !notObjects[w] && !wholeWords[w]
}

// wholeWords name no one unit: "the whole server", "restart them".
var wholeWords = words(`whole entire every both them they those services containers units`)
