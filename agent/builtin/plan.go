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
	rePlan = compile(`(?i)^\s*(?:我|我们|咱们)?(?:打算|准备|计划)(?:明天|今晚|晚上|下周|周末|之后|稍后|过几天|下午|回头|等会|待会)?|^\s*(?:i'?m|i am|we'?re|we are)?\s*(?:planning|going|about)\s+to\b|^\s*(?:i|we)\s+(?:plan|intend|will|'ll)\s+(?:to\s+)?`)
	// reOwnPlan is the speaker's own plan with its time: "我打算明天加一块盘",
	// "we're planning to add a disk next week".
	reOwnPlan = compile(`(?i)^\s*(?:我|我们|咱们)(?:打算|准备|计划)(?:明天|今晚|晚上|下周|周末|之后|稍后|过几天|下午|回头|等会|待会|下个月|月底)` +
		`|^\s*(?:i'?m|i am|we'?re|we are)\s+(?:planning|going)\s+to\b[^.?!,，]*\b(?:tomorrow|tonight|next\s+week|later|this\s+weekend|next\s+month)\b` +
		`|^\s*(?:i|we)\s+(?:plan|intend)\s+to\b[^.?!,，]*\b(?:tomorrow|tonight|next\s+week|later|this\s+weekend|next\s+month)\b`)
	// reAsksToSee asks to see or asks a question: what a clause beside a
	// plan must do for the plan to be a mention.
	reAsksToSee = compile(`(?i)看|查|显示|列出|告诉我|什么|哪些|哪个|多少|吗|[?？]|\b(?:show|what|which|how|check|list|tell|is|are|does|do|see|look)\b`)
	// reHandOver hands the plan over: "你帮我弄一下", "do it now".
	reHandOver = compile(`(?i)(?:帮我|你|给我|替我)?(?:弄|搞|做|办|处理|执行|操作|来)(?:一下|下|掉|了|吧)|你来|看着办|交给你|你决定|安排(?:一下|下)|帮我(?:升级|卸载|删|装|安装|重启|停|清)|\b(?:do|handle|execute|run)\s+(?:it|that|this)\b|\bgo ahead\b|\bfor me\b|\btake care of\b|\b(?:can|could|would) (?:u|you) (?:do|handle)\b`)
)

// planAside is text with each clause that tells the speaker's own plan
// blanked, when another clause asks to see something or asks a question
// (reAsksToSee) and none hands the plan over (reHandOver). Its cost is
// linear in len(text).
func planAside(text string) string {
	if reHandOver.MatchString(text) {
		return text
	}
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
