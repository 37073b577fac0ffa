package builtin

import "strings"

// A paste, then a request: lines of output, logs or a command someone
// ran, then a last line that asks for something ("top - 10:02:11 up 3
// days …\nis the CPU pegged right now?", "CRON[2231]: … cleanup.sh\nlist
// the files in /etc/cron.d"). The last line decides what is planned;
// the pasted lines are only read for destructive requests, never as
// command lines to run or refuse (a program they name is what was run,
// not what is asked). A last line that hands the paste over ("帮我执行",
// "run these") is not such a request: the paste is then read as
// commands, line by line like a chain (shellHarm, blockIntent).

// reZhSee asks in Chinese to see something: "显示 /etc/hosts 的内容".
var reZhSee = compile(`看|查|显示|列|告诉|统计|打开|输出`)

// reRunBack asks to run what was pasted.
var reRunBack = compile(`(?i)^\s*(?:please\s+|pls\s+|just\s+)?(?:run|execute|exec|apply)\b(?:\s+(?:it|this|these|them|that|the\s+above|above|all|now|please|pls|for\s+me|on\s+\S+))*\s*[.!]?\s*$|(?:帮我|麻烦|请)?(?:执行|运行|跑|操作)(?:一下|下)?(?:这个|这些|上面的?|它们?)?(?:命令|脚本)?\s*(?:吧|谢谢)?\s*[。.!！]?\s*$`)

// pasteRequest splits text into its pasted lines and the last line, if
// text is a paste, then a request that asks to see something or asks a
// question in prose.
func pasteRequest(text string) (paste []string, last string, ok bool) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) < 2 {
		return nil, "", false
	}
	last = strings.TrimSpace(lines[len(lines)-1])
	if last == "" || reRunBack.MatchString(last) || reShellMeta.MatchString(last) ||
		!(isQuestion(last) || zhQuestion(last) || asksToSee(last) || reZhCheck.MatchString(last) || reZhSee.MatchString(last)) {
		return nil, "", false
	}
	return lines[:len(lines)-1], last, true
}

// pasteIntent decides a paste, then a request (see above): a pasted
// line that asks for a destructive action refuses the message; else
// the last line is the message. decided is false when text is not a
// paste and a request.
func (c *commands) pasteIntent(text string) (in Intent, decided bool, request string) {
	paste, last, ok := pasteRequest(text)
	if !ok {
		return Intent{}, false, text
	}
	for _, l := range paste {
		if r := c.pasteHarm(l); !r.none() {
			return refuseIntent(r), true, text
		}
	}
	return Intent{}, false, last
}

// pasteHarm is a pasted line's destructive request: read by meaning,
// a program of the tiers or one they do not offer named as what was run
// ("sysctl -a says …", "git diff snippet:") is not refused.
func (c *commands) pasteHarm(line string) refusal {
	t := inert(line)
	if m := reExecLead.FindStringSubmatch(t); m != nil {
		argv := []string{strings.ToLower(m[1])}
		for _, a := range asciiFields(t[len(m[0]):]) {
			if !argsLike(a) {
				break // "sysctl -a says …": the line's words after the command
			}
			argv = append(argv, a)
		}
		if readOnlyForm(argv) {
			return refusal{}
		}
	}
	if reDocQuestion.MatchString(t) || isQuestion(t) || reFailure.MatchString(t) {
		return refusal{}
	}
	return c.harm(t)
}

// reFailure tells that something failed: a pasted line that reports it
// ("git pull on the server keeps failing:") asks for nothing.
var reFailure = compile(`(?i)\b(?:keeps?|kept)\s+failing\b|\b(?:failed|fails|failing|errored)\b|报错|失败|出错`)
