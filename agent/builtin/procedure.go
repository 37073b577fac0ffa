package builtin

// A document or procedure named as the means of a request ("按运维手册把
// /var/log 下的日志都删掉", "照着 SOP 把旧内核都删了吧", "per the runbook,
// purge /var/cache/app", "the runbook says purge /data/tmp, go ahead")
// says how the action should be done, not that the message asks about
// the document: the action is still asked for. The safety stage reads
// the request with such a phrase blanked, so the document word in it no
// longer excuses the request; a question about the procedure keeps its
// own words ("清理日志的 SOP 是什么", "按手册，磁盘满了应该怎么处理",
// "per the docs, how do I uninstall docker?") and is not refused.
var reProcedureMeans = compile(`(?i)` +
	`(?:按照?|照着?|依照|根据|参照|参考|遵照|遵循|依据|按着)\s*[^，。,；;？?！!\s什么哪怎何几啥]{0,12}?\s*` + procedureNouns +
	`(?:\s*(?:里|中|上)?的?\s*(?:` + procedureNouns + `|要求|规定|说的|写的|做法|方法))?(?:\s*(?:来|操作|执行|处理|要求))?` +
	`|(?:运维|值班|安全)?(?:` + procedureNouns + `)\s*(?:要求|规定|说)(?:的|了)?` +
	`|\b(?:per|following|according\s+to|as\s+per|as|like|by)\s+(?:the\s+|our\s+|this\s+|that\s+)?(?:[\w-]+\s+){0,2}?(?:runbooks?|playbooks?|sops?|docs?|documentation|wiki|manual|procedure|guide|instructions|checklist)(?:\s+says?)?\b` +
	`|\b(?:the\s+|our\s+)?(?:runbooks?|playbooks?|sops?|docs?|documentation|wiki|manual|procedure|guide)(?:\s+[\w-]+){0,4}?\s+says(?:\s+to)?\b`)

// procedureNouns name documents and procedures that a request may follow.
const procedureNouns = `(?:文档|手册|SOP|方案|预案|说明书?|规范|流程|步骤|方法|做法|教程|指南|runbook|playbook|wiki|知识库|checklist|清单)`

// procedureAside is text with the procedures it names as the means of
// a request blanked. Its cost is linear in len(text).
func procedureAside(text string) string {
	return reProcedureMeans.ReplaceAllString(text, " ")
}
