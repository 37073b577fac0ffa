package builtin

import "strings"

// A fenced code block pasted into a message ("```bash … ```", then "run
// this" or "执行一下") is read command by command like a chain: any line
// that changes the system refuses the message, one command line alone is
// that command line, several are a chain the tiers refuse. A block the
// message asks about ("what does this do?", "这条命令是什么意思？") asks
// nothing to be run: it is blanked. A block of data (yaml, json) is read
// for destructive lines only; the words around it decide.

// shellInfo are the info strings of a fence that holds shell lines.
var shellInfo = words(`bash sh shell console zsh terminal term cmd shell-session text plaintext`)

// fencedBlock splits text at its first fenced code block: the fence's
// info string, the block's lines and the text around it. ok is false
// when text has no fence. An unclosed fence runs to the end.
func fencedBlock(text string) (info string, lines []string, outside string, ok bool) {
	start := strings.Index(text, "```")
	if start < 0 || strings.TrimSpace(text[strings.LastIndexByte(text[:start], '\n')+1:start]) != "" {
		return "", nil, "", false
	}
	open := start + 3
	for open < len(text) && text[open] == '`' {
		open++
	}
	eol := strings.IndexByte(text[open:], '\n')
	if eol < 0 {
		return "", nil, "", false
	}
	info = strings.ToLower(strings.TrimSpace(text[open : open+eol]))
	body := text[open+eol+1:]
	after := ""
	if end := strings.Index(body, "```"); end >= 0 {
		after = strings.TrimLeft(body[end:], "`")
		body = body[:end]
	}
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return info, lines, text[:start] + "\n" + after, true
}

// blockIntent decides a message with a fenced block of shell lines asked
// to be run (see above). text is the message with the fences dropped
// (or, when the block is asked about, the message without it), for the
// stages after.
func (c *commands) blockIntent(msg string) (in Intent, decided bool, text string) {
	info, lines, outside, ok := fencedBlock(msg)
	if !ok {
		return Intent{}, false, msg
	}
	if o := strings.TrimSpace(outside); o != "" && (isQuestion(o) || zhQuestion(o)) && !reRunWord.MatchString(reRunBefore.ReplaceAllString(o, " ")) {
		return Intent{}, false, o // "```rm -rf /tmp/x```, what does this do?"
	}
	shell := info == "" || shellInfo[info]
	var cmds []string
	for _, l := range lines {
		if shell {
			if strings.HasPrefix(l, "#!") {
				continue
			}
			l = strings.TrimSpace(strings.TrimLeft(l, "$#>"))
			if in, ok := c.safety(l); ok && in.Kind == "refuse" {
				return in, true, msg
			}
			cmds = append(cmds, l)
		} else if r := c.shellHarm(l); !r.none() {
			return refuseIntent(r), true, msg
		}
	}
	text = strings.TrimSpace(outside + "\n" + strings.Join(lines, "\n"))
	switch {
	case len(cmds) == 1:
		if in, ok := c.safety(cmds[0]); ok {
			return in, true, text
		}
	case len(cmds) > 1:
		if in, ok := c.safety(strings.Join(cmds, " && ")); ok {
			return in, true, text
		}
	}
	return Intent{}, false, text
}

// reRunBefore is a time before the run, which asks for no run:
// "执行之前先问一下", "before anyone runs that".
var reRunBefore = compile(`(?i)(?:执行|运行|跑)(?:之前|以前|前)|\bbefore\s+(?:\w+\s+)?(?:runs?|running|executes?|executing|applies|applying)\b`)

// reRunWord asks for something to be run.
var reRunWord = compile(`(?i)\b(?:run|execute|exec|apply)\b|\bdo (?:it|this|that)\b|\bgo ahead\b|执行|运行|跑|搞定|弄|处理|操作`)
