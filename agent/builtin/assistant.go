package builtin

import "strings"

// assistantAsk is what a request addressed to the assistant itself asks
// for: text, an action on the conversation, a reminder, a language. None
// of them changes the machine, so none is a refusal.
type assistantAsk int

const (
	askNone     assistantAsk = iota
	askText                  // text to write or reword: a script, a config, an email, a password, its own answer
	askChat                  // an action on the conversation: clear it, start a new one, delete it
	askReminder              // a reminder, which opsassist does not have
	askLanguage              // the language of the answers
)

// Word lists of the rules below. A text noun is something the assistant
// would write: not a list or a report, which ask for what a tool shows
// ("give me a list of running processes").
const (
	enTextNoun = `(?:(?:bash |shell |python |backup |cleanup |deploy(?:ment)? |rotation )?script|(?:[\w.-]+ )?config(?:uration)?(?: file)?|(?:systemd )?unit file|dockerfile|playbook|e-?mail|letter|announcement|notice|check ?list|to-?do list|poem|haiku|song|story|joke|template|snippet|one-liner|regex|regular expression|readme|postmortem|post-mortem|password|passphrase|random string)`
	enLang     = `(?:english|chinese|mandarin|japanese|korean|french|german|spanish)`
	zhTextNoun = `(?:脚本|配置文件|配置|(?:service|unit|yaml|json|ini|toml|docker)\s*文件|dockerfile|邮件|通知|公告|说明|检查清单|诗|文案|模板|示例|例子|正则表达式|正则|周报|日报|方案|随机密码|强密码|密码|口令|密钥|随机字符串)`
	zhLang     = `(?:英文|英语|中文|汉语|日语|韩语|法语|德语)`
	// enAsked and zhAsked: a verb asked of the assistant starts its
	// clause, after politeness ("could you write …", "帮我写 …"), unlike
	// "I need to write …", "how do I write …", "我要写一份 …".
	enAsked = `(?:^|[.!?;,:]\s*)(?:(?:please|pls|kindly|can you|could you|would you|will you|help me|i need you to|i'd like you to|i want you to|go ahead and)\s+)*`
	zhAsked = `(?:^|[。！？；，,.!?;:：]\s*)(?:请|麻烦|劳驾|能不能|能否|可以|可不可以|你|您|帮我|帮忙|给我|替我|帮)*\s*`
	// tail is what describes a text or a reminder, to its clause's end.
	tail = `[^.!?;,。！？；，\n]*?` + clauseEnd
	// clauseEnd ends a phrase: punctuation, the message's end, or a
	// word that starts another request, which is read on its own.
	clauseEnd = `(?:\s*(?:please|pls|now|for me|thanks|thank you|吧|吗|呢|了|谢谢)?\s*(?:[.!?;,。！？；，、]|$|\s(?:and|then)\b|然后|再|并|接着|之后|顺便))`
)

var (
	// reAskChat: an action on the conversation itself ("clear the
	// chat", "start a new conversation", "清空聊天记录", "开一个新对话").
	reAskChat = compile(`(?i)(?:\b(?:clear|reset|wipe|erase|delete|remove|start|begin|open|restart)\s+(?:(?:the|this|our|my|a|current|whole|entire)\s+)*(?:new\s+|fresh\s+)?(?:chat|conversation|dialog(?:ue)?)(?:\s+(?:history|messages))?|^\s*new\s+(?:chat|conversation)|(?:清空|清除|清掉|删除|删掉|删了|重置|新建|新开|开|开启|开始|换)(?:一下|一个|个|新的|这个|本|当前|我们的|所有的?|全部)*(?:新)?(?:对话|聊天记录|聊天|对话记录|对话历史|聊天历史))` + clauseEnd)
	// reAskLanguage: the language of the answers ("answer in english",
	// "change your answer to english", "以后用英文回答我").
	reAskLanguage = compile(`(?i)(?:\b(?:answer|reply|respond|talk|speak|write)\s+(?:to\s+me\s+|me\s+)?in\s+` + enLang + `\b|\b(?:change|switch|translate)\s+(?:(?:your|the|that|this|last|previous)\s+)*(?:answers?|repl(?:y|ies)|responses?|language)\s+(?:to|into)\s+` + enLang + `\b|(?:用|改用|换成|换用)` + zhLang + `(?:回答|回复|答复|说|讲|交流))`)
	// reAskReword: the assistant's own output or the conversation,
	// reworded ("summarize our conversation", "把你的回答翻译成英文").
	reAskReword = compile(`(?i)(?:\b(?:translate|rephrase|reword|rewrite|shorten|summari[sz]e|simplify|condense|redo|repeat)\s+(?:(?:your|the|that|this|last|previous|our|my|above|whole)\s+)*(?:answer|reply|response|chat|conversation|discussion)s?\b|(?:你的|刚才的?|上面的?|上一条|上一个|之前的?|这个|这条)?(?:回答|回复|答复)(?:翻译|改写|重写|缩短|精简|润色|总结)|(?:翻译|改写|重写|缩短|精简|润色|总结)(?:一下)?(?:你的|刚才的?|上面的?|上一条|之前的?|这个|我们的|整个)*(?:回答|回复|答复|对话|聊天记录|聊天))`)
	// reAskText: text to be produced ("write a bash script that backs
	// up /etc", "帮我写个 nginx 配置"): a verb of writing asked of the
	// assistant, an indefinite object, a text noun; in English what
	// describes it up to the clause's end too. Chinese describes it
	// before the noun ("写一个备份 /etc 的脚本"); what follows the noun is
	// a request of its own ("写个脚本把日志删掉"), read by the rules.
	reAskText = compile(`(?i)(?:` + enAsked + `(?:write|draft|generate|compose|produce|prepare|give|suggest|come up with)\s+(?:me\s+|us\s+)?(?:a|an|some|one|another)\s+(?:[\w./-]+\s+){0,3}?` + enTextNoun + `s?\b` + tail + `|` + zhAsked + `(?:写|生成|起草|拟|编|出)(?:一下)?(?:一)?(?:个|份|封|首|段|篇|条|套|组)[^，,。！？；;\n]{0,24}?` + zhTextNoun + `)`)
	// reAskReminder: a reminder ("set a reminder", "remind me at 5 to …",
	// "提醒我下午三点检查备份").
	reAskReminder = compile(`(?i)(?:\b(?:set|create|add|make)\s+(?:me\s+|up\s+)?(?:a|an)\s+reminder\b|\bremind\s+me\s+(?:to|at|in|on|tomorrow|tonight|later|every|next|this|after|before)\b|(?:设置|设|定|建|加|创建)(?:一下)?(?:一)?(?:个)?提醒|提醒我(?:一下)?(?:在|明天|今天|今晚|下午|上午|晚上|早上|中午|待会|稍后|过|每|\d|[一二三四五六七八九十两]+点))` + tail)

	// reAboutUpload: a text about the uploads ("give me a summary of
	// my uploaded files") is a read of them, which the planner does.
	reAboutUpload = compile(`(?i)upload|上传|传了|传的`)
	// rePlaced: the text is to be put on the machine or run there —
	// a destination, a placing or running verb, a user or account it
	// is set on. Such a request is read by the safety rules as usual.
	rePlaced = compile(`(?i)(?:\b(?:to|into|onto|under|at)\s+(?:~|/|\.{1,2}/|\$home|[a-z]:\\)|\b(?:save|install|put|place|deploy|apply|copy|move|append|overwrite|replace|run|execute|exec|enable|activate|schedule|crontab|cron job|set it|use it|add it|for (?:the )?(?:user|account|root|admin|database|db)\b|for [\w-]+ (?:user|account)\b|ssh|gpg|pgp|rsa|ed25519|authorized_keys|sudoers)\b|写到|写进|写入|放到|放进|放在|存到|存入|保存|覆盖|替换|部署|应用到|执行|运行|跑一下|跑起来|安装|加到|添加到|设置为|设为|设成|改成|改为|用户|账号|账户|root|sudo|定时任务|计划任务)`)
)

// assistantRule is one rule of requests to the assistant and what it
// asks for.
var assistantRules = [...]struct {
	re  *rx
	ask assistantAsk
}{
	{reAskChat, askChat},
	{reAskLanguage, askLanguage},
	{reAskReword, askText},
	{reAskReminder, askReminder},
	{reAskText, askText},
}

// assistantIntent reads a request addressed to the assistant itself: an
// object that is the assistant's own output or the conversation, or
// text to be produced, with a verb of producing or rewording; a
// reminder; the answers' language. Such a request changes nothing on
// the machine, so it is no refusal and calls no tool (answered by
// assistantAnswer). It is not one when the text is to be put on the
// machine or run there (rePlaced), or when what the message says
// besides it — the phrases blanked — is refused or calls a tool: "clear
// the chat and then rm -rf /var/log" is read by the safety rules whole.
func (c *commands) assistantIntent(text string) (Intent, bool) {
	ask, first := askNone, len(text)
	var spans [][]int
	for _, r := range assistantRules {
		for _, loc := range r.re.FindAllStringIndex(text, -1) {
			spans = append(spans, loc)
			if loc[0] < first {
				ask, first = r.ask, loc[0]
			}
		}
	}
	if ask == askNone || rePlaced.MatchString(text) || ask == askText && reAboutUpload.MatchString(text) {
		return Intent{}, false
	}
	rest := []byte(text)
	for _, loc := range spans {
		for i := loc[0]; i < loc[1]; i++ {
			rest[i] = ' '
		}
	}
	if in, ok := c.rulesSafety(string(rest)); ok && in.Kind != "smalltalk" && in.Kind != "help" {
		return Intent{}, false
	}
	return Intent{Kind: "assistant", ask: ask}, true
}

// assistantAnswer is the answer to a request addressed to the
// assistant: what the offline planner cannot do here, what does it
// instead, and the short list of what it can do.
func assistantAnswer(zh bool, ask assistantAsk) string {
	t := lang(zh)
	model := t("撰写或改写文字需要语言模型：在服务器配置的 providers 和 llm 中设置一个模型（见 docs/configuration.md 的“Providers”一节），再用 /model 名称 切换。",
		"Writing or rewording text needs a language model: set one up under providers and llm in the server's configuration (docs/configuration.md, \"Providers\"), then switch to it with /model NAME.")
	var s string
	switch ask {
	case askChat:
		s = t("我不能在对话里操作对话本身，这由客户端来做：在命令行 REPL 中，/clear 清空本对话的消息，/new 开始新对话，/delete ID 删除对话；在网页上，点“＋ 新对话”开始新对话，对话列表中每个对话旁的删除按钮删除它。",
			"I can't act on the conversation from inside it; the client does that: in the REPL, /clear clears this conversation's messages, /new starts a new conversation and /delete ID deletes one; on the web page, \"New chat\" starts a new conversation and the bin button beside a conversation in the list deletes it.")
	case askReminder:
		s = t("opsassist 没有提醒功能：我不能在之后通知你，也没有在机器上设置任何东西。",
			"opsassist has no reminders: I can't notify you later, and I set nothing on the machine.")
	case askLanguage:
		s = t("离线助手用你提问的语言回答：用中文提问就用中文回答，用英文提问就用英文回答。", "The offline assistant answers in the language you write in: ask in English and the answer is in English. ") + model
	default:
		s = t("离线助手不会撰写文字（脚本、配置、邮件、密码、翻译或总结），也没有在机器上改动任何东西。", "The offline assistant doesn't write free text (scripts, configs, emails, passwords, translations or summaries), and I changed nothing on the machine. ") + model
	}
	return strings.TrimSpace(s) + "\n" + capabilities(zh)
}
