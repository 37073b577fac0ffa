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
// ("重启 nginx 然后删掉日志") is refused, besideRefusal deciding.
// The restart and reload words, the one list of them: the clause rules
// here, the prose rules (proseCommand, prosecmd.go) and the check of
// what stands beside a proposal all read these.
const (
	restartZh = `重启|重起|重新启动`
	reloadZh  = `重载|重新加载`
)

var (
	reRestartZh = compile(`^(?:请|麻烦|帮我|帮忙|给我|你|能不能|可以|辛苦|劳驾|顺手|再|(?i:pls|please|plz)\s*)*\s*(?:` +
		`(` + restartZh + `|` + reloadZh + `|restart|reload)\s*(?:一下|下)?\s*(?:the\s+)?(?:名为|名叫|叫做|叫)?\s*([A-Za-z0-9][\w@.-]*)\s*(?:这个|那个|这|那|的)?\s*(服务|容器|service|container|svc)?\s*(?:的?配置)?` +
		`|把\s*([A-Za-z0-9][\w@.-]*)\s*(?:这个|那个|这|那)?\s*(服务|容器|service|container|svc)?\s*(?:给)?\s*(` + restartZh + `|` + reloadZh + `|restart|reload)\s*(?:一下|下)?` +
		`)\s*(?:吧|呗|一下)?\s*$`)
	// reRestart and reReload are the words of one action; reRestartWords
	// all of them, as a request may repeat them in its reason ("我这边确认过可以重启").
	reRestart      = compile(`(?i)` + restartZh + `|\b(?:restart|bounce)\b`)
	reReload       = compile(`(?i)` + reloadZh + `|\breload\b`)
	reRestartWords = compile(`(?i)` + restartZh + `|` + reloadZh + `|\brestart(ed|ing)?\b|\breload(ed|ing)?\b|\bbounce\b`)
)

// unitKinds are the words naming what the name is.
var unitKinds = map[string]string{"service": "service", "unit": "service", "daemon": "service", "svc": "service",
	"服务": "service", "container": "container", "容器": "container"}

// restartConcepts are the concepts of proseCommand (prosecmd.go) that
// restart or reload one named service or container.
var restartConcepts = map[string]bool{"service-restart": true, "service-reload": true, "container-restart": true}

// restartIntent proposes the ask tier's restart (or reload) of the
// service or container text names, if the tiers run it and nothing
// else the text asks is destructive: first clause by clause — a clause
// that is an imperative restart of one unit, whatever the other clauses
// tell of the past ("nginx 重启了两次还是卡，重启一下 nginx 服务", "nginx
// doesn't respond, restart the nginx service") — then, in Chinese, in
// any words naming the unit with the word service or container
// (proseCommand). Nothing is proposed when the restart is negated ("不要
// 重启 nginx 服务", "don't restart nginx"), asked about ("how do I
// restart …", "did you restart nginx?", "nginx 服务为什么一直重启") or
// past ("api 容器重启了几次"), or names a second unit ("restart nginx and
// postgres"). A restart with shell
// operators or a destructive request beside it ("restart nginx && rm
// -rf /", "restart nginx then sudo reboot") is refused: ok is true and
// the intent is the refusal.
func (c *commands) restartIntent(text string) (Intent, bool) {
	t := procedureAside(inert(text))
	if !reRestartWords.MatchString(t) || reDocQuestion.MatchString(t) {
		return Intent{}, false
	}
	if reShellMeta.MatchString(t) {
		return refuseIntent(refusal{"shell operators (; & | > < ` $) are not allowed", "不允许使用 shell 操作符（; & | > < ` $）"}), true
	}
	if argv, r, found := c.clauseRestart(t); found {
		if !r.none() {
			return refuseIntent(r), true
		}
		if argv == nil {
			return Intent{}, false
		}
		return commandIntent(argv), true
	}
	// In other words than a clause of its own, a restart told negated or
	// past anywhere proposes nothing.
	if reNotRestart.MatchString(t) {
		return Intent{}, false
	}
	if !hasHan(t) || zhQuestion(t) || reDocWord.MatchString(names(t)) || reTwoUnits.MatchString(t) {
		return Intent{}, false // English is read clause by clause only
	}
	argv, concept := c.proseCommand(t)
	if !restartConcepts[concept] {
		return Intent{}, false
	}
	if systemdUnit(argv[len(argv)-1]) {
		return refuseIntent(refuseHarm(harmService, quoted(strings.TrimSpace(t)))), true // "systemd daemon-reload 一下"
	}
	if r := c.besideRefusal(t, argv[0]); !r.none() {
		return refuseIntent(r), true
	}
	return commandIntent(argv), true
}

var (
	// reNotRestart negates a restart, or tells of one past or as a
	// noun: "不要重启", "don't restart", "重启了几次", "restart count".
	reNotRestart = compile(`(?i)(?:不要|别|不用|不必|无需|不能|不许|勿|没有?|don'?t|do not|never|not)\s*(?:再|去|把|要)?\s*(?:重启|重起|重新启动|重载|重新加载|restart|reload|bounce)` +
		`|(?:重启|重起|重新启动|重载|重新加载)\s*(?:了|过|次数|几次|多少次)|(?:restart|reload)s?\s+(?:count|counts|loop|loops|policy|history|failed|fails|failure|attempts?|times|events?)|restarted|reloaded`)
	// reTwoUnits names two units in one request: "nginx 和 postgres 服务".
	reTwoUnits = compile(`(?i)[A-Za-z0-9][\w.@-]*\s*(?:服务|容器)?\s*(?:和|跟|与|及|以及|还有|、|/|&|and|plus)\s*[A-Za-z0-9][\w.@-]*\s*(?:服务|容器|services?|containers?)`)
)

// clauseRestart reads text clause by clause for a restart or reload of
// a named unit: found tells whether one was asked, argv is the command
// proposed, nil when the tiers do not run it; r is the refusal when
// the rest of the text asks for something destructive.
func (c *commands) clauseRestart(t string) (argv []string, r refusal, found bool) {
	parts := splitClauses(t)
	for i, p := range parts {
		action, name, kind, tail, ok := restartOf(p)
		if !ok || notUnits[strings.ToLower(name)] {
			continue
		}
		if systemdUnit(name) {
			// "reload systemd units": systemctl daemon-reload, a change the
			// tiers do not offer, not a unit's reload.
			return nil, refuseHarm(harmService, quoted(strings.TrimSpace(p))), true
		}
		switch {
		case kind == "container" && action == "restart":
			argv = []string{"docker", "restart", name}
		case kind == "container":
			continue // a container has no reload
		default:
			argv = []string{"systemctl", action, name}
		}
		rest := strings.Join(append(append([]string{tail}, parts[:i]...), parts[i+1:]...), "，")
		if r := c.besideRefusal(rest, ""); !r.none() {
			return nil, r, true
		}
		if secondUnit(tail) || !c.runnable(argv[0], argv[1:]) {
			return nil, refusal{}, true // "restart nginx and postgres": not one unit
		}
		return argv, refusal{}, true
	}
	return nil, refusal{}, false
}

// systemdUnit reports whether name is systemd itself, not a unit: its
// reload is a daemon-reload.
func systemdUnit(name string) bool {
	n := strings.ToLower(name)
	return n == "systemd" || n == "systemctl" || n == "daemon" || n == "daemon-reload"
}

// secondUnit reports whether the words after a restart's unit join
// more than a request to look ("and then show its logs") to it: "and
// postgres", "plus the worker".
func secondUnit(tail string) bool {
	tw := strings.Fields(tail)
	if len(tw) == 0 || !conjunctions[tw[0]] {
		return false
	}
	for len(tw) > 0 && conjunctions[tw[0]] {
		tw = tw[1:]
	}
	return len(tw) == 0 || !readVerbs[tw[0]]
}

// besideRefusal is the refusal of what stands beside a proposed unit
// command, without the restart words and the program that runs it, or
// the zero refusal.
func (c *commands) besideRefusal(rest, program string) refusal {
	rest = reRestartWords.ReplaceAllString(rest, " ")
	if program != "" {
		rest = strings.ReplaceAll(rest, program, " ")
	}
	return c.destructive(rest)
}

// harmlessBeside reports whether the rest of a request for a status,
// without the restart words and the program that runs it ("redis
// 服务还活着没 systemctl 看下"), asks nothing destructive.
func (c *commands) harmlessBeside(rest, program string) bool {
	return c.besideRefusal(rest, program).none()
}

// splitClauses cuts text at sentence punctuation.
func splitClauses(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(",;!?—–\n，。；！？、", r) })
}

// restartOf reads one clause as a restart or reload of a named unit:
// the action, the name and its kind ("service", "container" or ""),
// and the words after them, to be checked.
func restartOf(clause string) (action, name, kind, tail string, ok bool) {
	if m := reRestartZh.FindStringSubmatch(strings.TrimSpace(strings.TrimRight(clause, ". "))); m != nil {
		verb, name, kind := m[1], m[2], m[3]
		if m[4] != "" {
			verb, name, kind = m[6], m[4], m[5]
		}
		action = "restart"
		if strings.Contains(verb, "载") || strings.EqualFold(verb, "reload") {
			action = "reload"
		}
		return action, name, unitKinds[strings.ToLower(kind)], "", true
	}
	cls := clauses(clause)
	for i, words := range cls {
		if a, n, k, rest, ok := restartWords(words); ok {
			for _, w := range cls[i+1:] {
				rest = append(append(rest, ","), w...)
			}
			return a, n, k, strings.Join(rest, " "), true
		}
	}
	return "", "", "", "", false
}

// restartWords reads an English clause's words: politeness, restart or
// reload (a typo allowed), the name with its kind before or after it;
// rest is the words after them but trailing politeness, for the caller
// to check.
func restartWords(words []string) (action, name, kind string, rest []string, ok bool) {
	i := 0
	for i < len(words) && politeWords[words[i]] {
		i++
	}
	if i+1 >= len(words) {
		return "", "", "", nil, false
	}
	if words[i] == "docker" && i+2 < len(words) {
		kind, i = "container", i+1 // "帮我 docker restart nginx-proxy"
	}
	switch w := words[i]; {
	case w == "restart" || w == "bounce" || len(w) >= 6 && oneEdit(w, "restart"):
		action = "restart"
	case w == "reload" || oneEdit(w, "reload"):
		action = "reload"
	default:
		return "", "", "", nil, false
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
		return "", "", "", nil, false
	}
	i++
	if i < len(words) && kind == "" {
		if k, isKind := unitKinds[words[i]]; isKind {
			kind, i = k, i+1
		}
	}
	rest = words[i:]
	for len(rest) > 0 && trailingPolite[rest[len(rest)-1]] {
		rest = rest[:len(rest)-1]
	}
	return action, name, kind, rest, true
}

// trailingPolite may end a request: "restart nginx please".
var trailingPolite = words(`please pls plz now asap thanks thx again for me quickly`)

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
// The machine's words (machineWordList, harm.go) are among them.
var wholeWords = words(machineWordList + ` whole entire every both them they those services containers units`)
