package builtin

import "strings"

// readFilters are programs that only filter what is piped into them.
var readFilters = words(`grep egrep fgrep head tail wc sort uniq`)

// pipedView is the command a pasted line shows when it pipes a command
// the tiers run into one read-only filter ("ps -ef | grep java"): the
// command before the pipe, whose output the answer shows. The tool runs
// no shell, so the filter is not run. A line asked to be executed as
// written ("执行 ps aux | grep java", "run … | …") is not one: the tiers
// refuse it (shell operators), saying so. ok is false for anything else.
func (c *commands) pipedView(text string, argv []string) ([]string, bool) {
	i := -1
	for j, a := range argv {
		if a == "|" {
			if i >= 0 {
				return nil, false
			}
			i = j
		}
	}
	if i < 1 || i+1 >= len(argv) || !readFilters[strings.ToLower(argv[i+1])] {
		return nil, false
	}
	left := argv[:i]
	for _, a := range argv {
		if a != "|" && reShellMeta.MatchString(a) {
			return nil, false
		}
	}
	t := strings.TrimLeft(strings.TrimSpace(text), "`'\"")
	if !strings.HasPrefix(t, argv[0]) && !strings.HasPrefix(strings.ToLower(t), "sudo "+argv[0]) {
		return nil, false // "执行 …": the line as written
	}
	if !c.runnable(left[0], left[1:]) {
		return nil, false
	}
	return left, true
}
