package builtin

import "strings"

// Requests to show one service's state, which the ask tier's systemctl
// status runs once the user confirms: "nginx 的状态", "status of nginx".
// The unit is an ASCII name, so "服务器的状态" (the machine) is not one.
// Restarts and reloads are restartIntent's (restart.go).
var (
	reStatusZh = compile(`^(?:请|帮我)?\s*(?:查看|看下|看一下|看看|检查)?(?:一下)?\s*([A-Za-z0-9][A-Za-z0-9@._-]*)\s*(?:服务)?\s*的?\s*(?:运行)?状态\s*(?:怎么样|如何)?\s*[?？。]?$`)
	reStatusEn = compile(`(?i)^(?:(?:show|check|what(?:'s| is))\s+(?:me\s+)?(?:the\s+)?)?(?:service\s+)?status\s+of\s+(?:the\s+)?([A-Za-z0-9][A-Za-z0-9@._-]*)(?:\s+service)?\s*[?.]?$`)
)

// notUnits are words the service rules capture that name the machine
// or everything, never one unit: "restart the server" is a reboot.
var notUnits = words(machineWordList + ` it all service services container containers unit units them`)

// serviceIntent turns a request to show one service's state into
// systemctl status, if the tiers can run it (the ask tier: it runs once
// the user confirms) and the rest of the request is harmless.
func (c *commands) serviceIntent(text string) (Intent, bool) {
	var unit string
	switch {
	case reStatusZh.MatchString(text):
		unit = reStatusZh.FindStringSubmatch(text)[1]
	case reStatusEn.MatchString(text):
		unit = reStatusEn.FindStringSubmatch(text)[1]
	default:
		return c.proseServiceIntent(text)
	}
	if notUnits[strings.ToLower(unit)] {
		return Intent{}, false
	}
	argv := []string{"systemctl", "status", unit}
	if !c.runnable(argv[0], argv[1:]) {
		return Intent{}, false
	}
	return commandIntent(argv), true
}

// proseServiceIntent is a request, in any words, to show one service
// named with the word service or unit ("redis 服务还活着没 systemctl
// 看下", "is the postgresql service active?"), if the rest of the
// request is harmless (harmlessBeside, restart.go).
func (c *commands) proseServiceIntent(text string) (Intent, bool) {
	argv, concept := c.proseCommand(text)
	if concept != "service-status" || !c.harmlessBeside(text, argv[0]) {
		return Intent{}, false
	}
	return commandIntent(argv), true
}
