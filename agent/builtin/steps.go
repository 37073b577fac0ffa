package builtin

import "strings"

// reStep opens a numbered step: "1. stop nginx", "2）清理日志", "第3步：…".
var reStep = compile(`^\s*(?:\d{1,3}\s*[.)）、:：]|第\s*[\d一二三四五六七八九十]{1,3}\s*步\s*[:：，,]?|[-*•]\s+)`)

// stepHarm reads each numbered or bulleted step of a list of steps
// ("步骤：\n1. 停掉 nginx\n2. 清理日志", a ticket's numbered actions) as a
// request of its own: a heading such as 步骤 or "steps" names no document
// asked about, and a step that changes the system refuses the list. Its
// cost is linear in len(text).
func (c *commands) stepHarm(text string) refusal {
	if !strings.Contains(text, "\n") {
		return refusal{}
	}
	for _, l := range strings.Split(text, "\n") {
		loc := reStep.FindStringIndex(l)
		if loc == nil {
			continue
		}
		if r := c.harm(l[loc[1]:]); !r.none() {
			return r
		}
	}
	return refusal{}
}
