package builtin

import (
	"strings"
	"unicode"
)

// reLeadTail is what may follow a leading command line in Chinese: a
// request to see or run it ("docker ps 看下", "ps aux 的结果给我看看").
var reLeadTail = compile(`^\s*[,，]?\s*(?:帮我|给我|麻烦|请)?\s*(?:看下|看看|看一下|瞧瞧|瞅瞅|查下|查一下|查查|跑下|跑一下|执行下|执行一下|运行下|运行一下|的(?:输出|结果|返回)|输出|结果|给我|发我|贴一下|来一下)`)

// leadingCommand is the command line a message starts with when prose
// in another script follows it ("docker ps 看下", "df -h 帮我看看",
// "ps aux 的结果给我看看"): the first word a command of the tiers, at
// least one argument, and the prose after it a request to see or run
// it. A name that is also an English word (free, top, find) takes
// options, paths and numbers only. The tiers decide afterwards whether
// it runs (classify).
func (c *commands) leadingCommand(text string) ([]string, bool) {
	text = withoutGreeting(text)
	line := asciiPrefix(text)
	if len(line) == len(strings.TrimSpace(text)) || !reLeadTail.MatchString(text[strings.Index(text, line)+len(line):]) {
		return nil, false // all ASCII (a bare command line), or prose that asks for nothing
	}
	argv := splitCommand(line)
	if len(argv) < 2 || reShellMeta.MatchString(line) {
		return nil, false
	}
	name := strings.ToLower(argv[0])
	if !c.allowed(name) && !c.askable(name) {
		return nil, false
	}
	for _, a := range argv[1:] {
		if (proseNames[name] || ambiguousPrograms[name]) && !reOperand.MatchString(a) {
			return nil, false
		}
		if !reOperand.MatchString(a) && !reArgWord.MatchString(a) {
			return nil, false
		}
	}
	argv[0] = name
	return argv, true
}

// reArgWord is a subcommand or a name as an argument: "ps", "status",
// "nginx", or a duration ("--since 10m").
var reArgWord = compile(`^(?:[a-z][\w.@:-]*|\d+[smhdw])$`)

// reOutputOf asks for a program's output by its name: "把 free 的输出给我",
// "uptime 命令的结果".
var reOutputOf = compile(`(?i)(?:^|[^\w.-])([a-z][\w.-]*)\s*(?:命令|指令)?\s*的\s*(?:输出|结果|返回)`)

// outputOf is the command of the tiers whose output the message asks
// for by name, with its default arguments.
func (c *commands) outputOf(text string) ([]string, bool) {
	m := reOutputOf.FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	name := strings.ToLower(m[1])
	if !c.allowed(name) && !c.askable(name) {
		return nil, false
	}
	return c.argv(name), true
}

// reGreetLead is a greeting or call at a message's start: "hello 👋",
// "你好，", "在吗？".
var reGreetLead = compile(`(?i)^(?:hi|hello|hey|yo|morning|你好|您好|嗨|哈喽|在吗|在不在|早上好|早)\b?`)

// withoutGreeting is text without the greetings, emoji and punctuation
// it starts with.
func withoutGreeting(text string) string {
	for {
		t := strings.TrimLeftFunc(text, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/' && r != '.' && r != '~' && r != '`'
		})
		if loc := reGreetLead.FindStringIndex(t); loc != nil {
			t = t[loc[1]:]
		}
		if t == text {
			return text
		}
		text = t
	}
}
