package builtin

import (
	"strings"
)

// The speaker's own plans ("我打算明天升级 mysql，先帮我看下版本",
// "planning to remove docker tonight, what depends on it?") tell what
// the speaker will do, and ask the planner for something else: the
// clause of the plan is a mention. A message that hands the plan over
// ("我打算把 mysql 升级到 8.0，你帮我弄一下", "planning to remove docker
// tonight, can u do it now") asks for it, and is read whole.
var (
	// rePlan opens a clause with the speaker's plan.
	rePlan = compile(`(?i)^\s*(?:我|我们|咱们)?(?:打算|准备|计划)(?:` + zhLater + `)?|^\s*(?:i'?m|i am|we'?re|we are)?\s*(?:planning|going|about)\s+to\b|^\s*(?:i|we)\s+(?:plan|intend|will|'ll)\s+(?:to\s+)?`)
	// reOwnPlan is the speaker's own plan: a plan verb, or the
	// speaker's future with a time ahead (zhLater, enLater): "我打算明天加一块盘",
	// "我周五升级内核", "我们下周把机房的服务器迁走", "we're going to reboot
	// the server after the backup finishes".
	reOwnPlan = compile(`(?i)^\s*(?:我|我们|咱们|咱)(?:打算|准备|计划)|^\s*(?:我|我们|咱们|咱)(?:先|自己|就)?(?:会|要|将|想)?(?:` + zhLater + `)` +
		`|^\s*(?:i'?m|i am|we'?re|we are)\s+(?:planning|going|about)\s+to\b[^.?!,，]*\b(?:` + enLater + `)\b` +
		`|^\s*(?:i|we)\s*(?:plan|intend|will|'ll|shall)\s+(?:to\s+)?[^.?!,，]*\b(?:` + enLater + `)\b`)
	// reAsksToSee asks to see or asks a question: what a clause beside a
	// plan must do for the plan to be a mention.
	reAsksToSee = compile(`(?i)看|查|显示|列出|告诉我|什么|哪些|哪个|多少|吗|[?？]|\b(?:show|what|which|how|check|list|tell|is|are|does|do|see|look)\b`)
	// reHandOver hands the plan over: "你帮我弄一下", "do it now".
	reHandOver = compile(`(?i)(?:帮我|你|给我|替我)?(?:弄|搞|做|办|处理|执行|操作|来)(?:一下|下|掉|了|吧)|你来|看着办|交给你|你决定|安排(?:一下|下)|帮我(?:升级|卸载|删|装|安装|重启|停|清)|\b(?:do|handle|execute|run)\s+(?:it|that|this)\b|\bgo ahead\b|\bfor me\b|\btake care of\b|\b(?:can|could|would) (?:u|you) (?:do|handle)\b`)
)

// The time words ahead, one list for every rule that reads a plan.
const (
	zhLater = `明天|后天|今晚|今天晚上|晚上|明早|早上|中午|下午|下班后?|午饭后|周末|下周[一二三四五六日天末]?|周[一二三四五六日天]|星期[一二三四五六日天]|` +
		`下个?月|月底|之后|稍后|过几天|回头|等会儿?|待会儿?|一会儿?|晚点|改天|\d{1,2}\s*点`
	enLater = `tomorrow|tonight|later|soon|next\s+(?:week|month|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|` +
		`this\s+(?:weekend|evening|afternoon|week)|after\s+(?:lunch|dinner|work|the\s+\w+|\w+)|at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?|` +
		`at\s+(?:noon|midnight|some\s+point)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|myself|ourselves`
)

// reZhSubjectFiller are the words a clause may open with that name no
// one: adverbs of order and time, a request's words stay.
var reZhSubjectFiller = compile(`先|都|全部|全|直接|顺便|然后|马上|赶紧|现在|刚才|刚刚|已经|昨天|昨晚|今天|今早|之前|前几天|也|就|又|\s`)

// reZhAsksAssistant asks the assistant: a clause with one is no report.
var reZhAsksAssistant = compile(`帮|请|麻烦|给我|替|吧|再|你|您|让|叫|说|要求|交代|能不能|可以|可否|能否|一下|想|要`)

// reZhPerson is a person: a person word or a name ("小王", "老李",
// "张工", "王总").
var reZhPerson = compile(`我|我们|他|她|他们|她们|同事|运维|开发|有人|别人|大家|团队|领导|老板|经理|主管|组长|管理员|实习生|(?i:dba|sre|ops)|` +
	`小\p{Han}|老\p{Han}|阿\p{Han}|\p{Han}(?:总|工|哥|姐|老师)`)

// zhReport reports whether cl tells what someone did: a named subject
// (a person word or a name, reZhPerson), a verb of change done
// (了, 过) and nothing asked of the assistant: "同事把防火墙关了",
// "小王刚才删了 /data/old". "把日志删了" has no subject and asks.
func zhReport(cl string) bool {
	if !strings.ContainsAny(cl, "了过") || reZhAsksAssistant.MatchString(cl) {
		return false
	}
	end := strings.IndexAny(cl, "把将")
	if loc := reZhChangeVerbs.FindStringIndex(cl); loc != nil && (end < 0 || loc[0] < end) {
		end = loc[0]
	}
	if end <= 0 {
		return false
	}
	subj := reZhSubjectFiller.ReplaceAllString(cl[:end], "")
	return reZhPerson.MatchString(subj) && !reZhLookWords.MatchString(subj) && !strings.ContainsAny(subj, "别不没")
}

// planAside is text with each clause that tells the speaker's own plan
// blanked, when another clause asks to see something or asks a question
// (reAsksToSee) and none hands the plan over (reHandOver). Its cost is
// linear in len(text).
func planAside(text string) string {
	if reHandOver.MatchString(text) {
		return text
	}
	text = mapClauses(text, func(cl string, _ bool) string {
		if hasHan(cl) && zhReport(cl) {
			return strings.Repeat(" ", len(cl)) // a report: "同事把防火墙关了"
		}
		return cl
	})
	if reOwnPlan.MatchString(text) {
		// "我打算明天加一块盘": the speaker's own plan, with its time, is
		// told, not handed over, even alone; a request beside it is read.
		text = mapClauses(text, func(cl string, _ bool) string {
			if reOwnPlan.MatchString(cl) {
				return strings.Repeat(" ", len(cl))
			}
			return cl
		})
	}
	out := mapClauses(text, func(cl string, last bool) string {
		if !last && rePlan.MatchString(cl) {
			return strings.Repeat(" ", len(cl)) // a plan beside another clause
		}
		return cl
	})
	if reAsksToSee.MatchString(out) {
		return out
	}
	return text // nothing else is asked: the plan is the request
}
