package builtin

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Intent is what the user asked for.
type Intent struct {
	// Kind names the intent: refuse, smalltalk, help, monitor, command,
	// download, upload_ref, search, unknown.
	Kind string
	// Tool is the first tool to call, "" for none.
	Tool string
	// Args are the first call's arguments.
	Args map[string]any
	// Reason explains a refusal, in English (for logs and tests); the
	// answer says it in the user's language (reason).
	Reason string
	// reason is the refusal in both languages.
	reason refusal
	// Query is the file name or phrase of a download.
	Query string
	// input is the message classified.
	input string
	// ask is what a request addressed to the assistant asks for (Kind
	// "assistant", assistant.go).
	ask assistantAsk
}

var (
	reGreet  = compile(`(?i)^\s*(你好|您好|嗨|哈喽|早上好|下午好|晚上好|早安|晚安|在吗|在不在|hi|hello|hey|good (morning|afternoon|evening)|yo)\b?[\s,，!！。.~?？]*(there|你好|您好)?[\s!！。.~?？]*$`)
	reThanks = compile(`(?i)^\s*((谢谢|多谢|感谢|辛苦|thanks|thank you|thx|再见|拜拜|bye|goodbye|好的|好滴|ok|okay|明白|知道|了解|收到|哈哈+|呵呵|嘿嘿|lol|haha+|a lot|so much|你|您|了|啦|呀|啊|哦)[\s,，!！。.~]*)+$`)
	reHelp   = compile(`(?i)(你|您)(能|会|可以).{0,6}(做|干|帮).{0,4}(什么|啥|哪些)|你.{0,2}会.{0,2}(什么|啥|哪些)|你是谁|你叫什么|你是(机器人|什么)|有(什么|哪些)功能|怎么用你|^(帮助|帮助一下|help|help me|\?|？)$|what can you do|what do you do|who are you|what are you|are you a (bot|robot|human)|how do i use you|your (features|capabilities)`)
)

// Classify finds the intent of one user message under the planner's
// command tiers. hasUploads tells whether the conversation has uploads,
// which makes "this file" references meaningful.
func (p Planner) Classify(input string, hasUploads bool) Intent {
	text := normalize(input)
	c := p.commands()
	in := c.restorePaths(c.classify(text, hasUploads), text)
	in.input = input
	return in
}

// invisible are characters that change nothing a reader sees but could
// split a word the rules look for.
var invisible = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "", "\\", "")

// normalize folds full-width and compatibility forms (ｒｍ → rm) and
// drops invisible characters and backslashes, so disguised commands are
// recognised and refused like plain ones.
func normalize(s string) string {
	return invisible.Replace(norm.NFKC.String(s))
}

// classify tries the intents from the most specific to the most general:
// explicit command lines and refusals first, so a destructive request is
// never mistaken for another intent; document search, the broadest, last.
// A command the rules name but the tiers do not run (neither the
// whitelist nor the ask tier, whose commands run once the user confirms
// them) is refused.
func (c *commands) classify(input string, hasUploads bool) Intent {
	in := c.classifyText(input, hasUploads)
	if name, ok := in.Args["command"].(string); ok && in.Tool == "command_executor" && !c.runnable(name, argStrings(in.Args["args"])) {
		if len(argStrings(in.Args["args"])) == 0 && c.askable(name) && !c.allowed(name) {
			// "docker 是什么时候装的": a program of the ask tier named
			// without the subcommand it needs is the topic, not a command.
			return Intent{Kind: "unknown"}
		}
		return refuseIntent(c.refuseCommand([]string{name}))
	}
	return in
}

// classifyText runs the planner's stages: typo repair, then the safety
// rules (explicit command lines, service requests, destructive requests,
// greetings and help), which no learned score can override, then the
// learned decision (decide.go) over the remaining requests.
func (c *commands) classifyText(input string, hasUploads bool) Intent {
	text := c.fixTypos(strings.TrimSpace(input))
	if text == "" {
		return Intent{Kind: "unknown"}
	}
	in, ok, text := c.screen(text)
	if ok {
		return in
	}
	in = c.decide(text, hasUploads)
	if in.Tool == "" && in.Kind == "unknown" {
		// No tool: a request of change no rule read is refused, never
		// left unanswered (backstop.go).
		if r := backstop(text); !r.none() {
			return refuseIntent(r)
		}
	}
	return in
}

// screen runs the safety stage on a message: a fenced block asked to
// be run (block.go), a paste then a request (paste.go), then safety.
// decided reports a decision; else text is what the learned stage reads
// (the request after a paste, the message without a block asked about).
// Training reads the same text (model_test.go).
func (c *commands) screen(text string) (in Intent, decided bool, rest string) {
	in, ok, text := c.blockIntent(text)
	if ok {
		return in, true, text
	}
	in, ok, request := c.pasteIntent(text)
	if ok {
		return in, true, text
	}
	// "top - 10:02:11 up 3 days …\nis the CPU pegged right now?": the request.
	if in, ok := c.safety(request); ok {
		return in, true, request
	}
	return Intent{}, false, request
}

// safety is the rule-based first stage: a request addressed to the
// assistant itself (text to write, the conversation) changes nothing
// and is answered (assistant.go); a command line goes through the tiers
// (run, ask or refuse), a destructive or system-changing request is
// refused, greetings and help need no tool.
func (c *commands) safety(text string) (Intent, bool) {
	if in, ok := c.assistantIntent(text); ok {
		return in, true
	}
	return c.rulesSafety(text)
}

// rulesSafety is safety without the reading of requests to the
// assistant, which reads what the message says besides them with it.
func (c *commands) rulesSafety(text string) (Intent, bool) {
	if line, ok := c.explicitCommand(text); ok {
		argv := countAsLines(withoutSudo(line))
		if view, ok := c.pipedView(text, argv); ok {
			argv = view // "ps -ef | grep java": ps's output
		}
		if reason := c.lineRefusal(text, line, argv); !reason.none() {
			return refuseIntent(reason), true
		}
		return commandIntent(argv), true
	}
	if line, ok := c.greetedCommand(text); ok {
		// "你好，journalctl --vacuum-time=1s 看下": the learned stage
		// proposes the line; the same checks refuse it here first.
		if reason := c.lineRefusal(text, line, countAsLines(withoutSudo(line))); !reason.none() {
			return refuseIntent(reason), true
		}
	}
	if in, ok := c.restartIntent(text); ok {
		return in, true
	}
	if in, ok := c.serviceIntent(text); ok {
		return in, true
	}
	if reason := c.destructive(text); !reason.none() {
		return refuseIntent(reason), true
	}
	switch {
	case reGreet.MatchString(text), reThanks.MatchString(text):
		return Intent{Kind: "smalltalk"}, true
	case reHelp.MatchString(text):
		return Intent{Kind: "help"}, true
	}
	return Intent{}, false
}

// ruleNames name the intent rules, in the order the hand-written
// planner tried them; decide reads each one's answer as evidence.
var ruleNames = [...]string{"download", "uploadsearch", "uploadkey", "uploadq", "specific", "namedpath", "monitor", "pathcmd", "phrase", "search"}

// rules runs every intent rule on text; hits[i] is rule ruleNames[i]'s
// intent, Kind "" where it did not fire.
func (c *commands) rules(text string, hasUploads bool) (hits [len(ruleNames)]Intent) {
	for i, try := range [...]func(string) (Intent, bool){
		downloadIntent,
		uploadSearchIntent,
		func(text string) (Intent, bool) { return uploadKeyIntent(text, hasUploads) },
		func(text string) (Intent, bool) { return uploadQuestionIntent(text, hasUploads) },
		c.specificCommandIntent,
		c.namedPathCommandIntent,
		monitorIntent,
		c.pathCommandIntent,
		c.phraseCommandIntent,
		searchIntent,
	} {
		if in, ok := try(text); ok {
			hits[i] = in
		}
	}
	return hits
}

// noUpload is the intent of a request no rule recognised: "有什么错误？"
// with nothing uploaded has no log to read.
func noUpload(text string, hasUploads bool) Intent {
	if !hasUploads && reErrorQuestion.MatchString(text) && !reSystemLog.MatchString(text) {
		return Intent{Kind: "no_upload"}
	}
	return Intent{Kind: "unknown"}
}

// argStrings is an intent's "args" as strings.
func argStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, a := range list {
		if s, ok := a.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// lineRefusal is why the command line line (argv without its sudo) the
// message text asks for will not be run, or the zero refusal: the tiers,
// sudo granted inside prose, options that change the system, and
// anything destructive in the prose around it.
func (c *commands) lineRefusal(text string, line, argv []string) refusal {
	reason := c.refuseCommand(argv)
	if sudoGranted(text, line) {
		reason = refuseHarm(harmAccess, "sudo")
	}
	if reason.none() {
		reason = optionHarm(argv[1:])
	}
	if reason.none() {
		reason = c.destructive(besides(reSudoLine.ReplaceAllString(text, "$1$2"), line) + gluedTails(line))
	}
	return reason
}

// greetedCommand is the command line a message starts with after a
// greeting ("嗨 journalctl --vacuum-size=1M") or before Chinese prose
// asking to see it ("你好，df -h 看下", leadingCommand).
func (c *commands) greetedCommand(text string) ([]string, bool) {
	if t := withoutGreeting(text); t != text {
		if line, ok := c.explicitCommand(t); ok {
			return line, true
		}
	}
	return c.leadingCommand(text)
}
