package builtin

import (
	"strings"

	"opsassist/tools/command"
)

// Requests to act on one service, which the ask tier's systemctl
// entries run once the user confirms: "重启 nginx", "restart nginx",
// "reload nginx", "nginx 的状态", "status of nginx". The unit is an ASCII
// name, so "重启服务器" (the machine) is not one and stays refused.
var (
	reServiceZh = compile(`^(?:请|麻烦)?你?(?:帮我|帮忙|给我)?\s*(重启|重新启动|重载|重新加载)(?:一下|下)?\s*([A-Za-z0-9][A-Za-z0-9@._-]*)\s*(?:服务|的配置|配置)?\s*(?:吧|一下)?\s*[。.!！]?$`)
	reServiceEn = compile(`(?i)^(?:please\s+|can you\s+|could you\s+)?(restart|reload)\s+(?:the\s+)?([A-Za-z0-9][A-Za-z0-9@._-]*)(?:\s+service)?(?:\s+(?:please|now|for me))?\s*[.!?]?$`)
	reStatusZh  = compile(`^(?:请|帮我)?\s*(?:查看|看下|看一下|看看|检查)?(?:一下)?\s*([A-Za-z0-9][A-Za-z0-9@._-]*)\s*(?:服务)?\s*的?\s*(?:运行)?状态\s*(?:怎么样|如何)?\s*[?？。]?$`)
	reStatusEn  = compile(`(?i)^(?:(?:show|check|what(?:'s| is))\s+(?:me\s+)?(?:the\s+)?)?(?:service\s+)?status\s+of\s+(?:the\s+)?([A-Za-z0-9][A-Za-z0-9@._-]*)(?:\s+service)?\s*[?.]?$`)
)

// notUnits are words the service rules capture that name the machine
// or everything, never one unit: "restart the server" is a reboot.
var notUnits = words(`server servers machine system computer box host it everything all os linux vm node service services container containers unit units them`)

// serviceIntent turns a request to restart, reload or show one service
// into systemctl, if the tiers can run it (the ask tier: it runs once
// the user confirms).
func (c *commands) serviceIntent(text string) (Intent, bool) {
	var action, unit string
	switch {
	case reServiceZh.MatchString(text):
		m := reServiceZh.FindStringSubmatch(text)
		action, unit = "restart", m[2]
		if strings.Contains(m[1], "载") {
			action = "reload"
		}
	case reServiceEn.MatchString(text):
		m := reServiceEn.FindStringSubmatch(text)
		action, unit = strings.ToLower(m[1]), m[2]
	case reStatusZh.MatchString(text):
		action, unit = "status", reStatusZh.FindStringSubmatch(text)[1]
	case reStatusEn.MatchString(text):
		action, unit = "status", reStatusEn.FindStringSubmatch(text)[1]
	default:
		return c.proseServiceIntent(text)
	}
	if notUnits[strings.ToLower(unit)] {
		return Intent{}, false
	}
	argv := []string{"systemctl", action, unit}
	if tier, _, _ := c.tiers.Classify(argv[0], argv[1:]); tier == command.TierDeny {
		return Intent{}, false
	}
	return commandIntent(argv), true
}

// serviceConcepts are the concepts of proseCommand that act on one named
// service or container: the safety stage lets them through to the ask
// tier, since the restart is what the user confirms.
var serviceConcepts = map[string]bool{"service-restart": true, "service-reload": true, "service-status": true, "container-restart": true}

// proseServiceIntent is a request, in any words, to restart, reload or
// show one service or container named with the word service, unit or
// container ("麻烦把 mysql 服务重启一下", "restart the redis container
// please, it is stuck"), if the rest of the request is not destructive:
// "restart nginx service and delete its logs" is refused.
func (c *commands) proseServiceIntent(text string) (Intent, bool) {
	argv, concept := c.proseCommand(text)
	if !serviceConcepts[concept] {
		return Intent{}, false
	}
	// The rest is checked without the restart and the program that
	// does it ("redis 服务还活着没 systemctl 看下").
	rest := strings.ReplaceAll(reReload.ReplaceAllString(reRestart.ReplaceAllString(text, " "), " "), argv[0], " ")
	if !dangerous(rest).none() {
		return Intent{}, false
	}
	return commandIntent(argv), true
}
