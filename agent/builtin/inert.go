package builtin

import (
	"strings"
	"unicode/utf8"
)

// Mentions of destructive words that ask for nothing: past events
// ("since the upgrade", rePastEvent's, "最后一次重启是什么时候"),
// errors ("connection reset"), the passive ("被覆盖了"), questions
// whether something happened or should ("nginx 停了吗", "是不是该扩容了"),
// the action as an attribute or a time ("已经停止的容器", "安装日志",
// "重启之前"), what a file mentions ("有没有写到"), patterns searched
// for (grep 'kill' …), scripts downloaded or read (下载 install.sh),
// whom to escalate to, and the ask tier's read-only programs named as
// the means ("check systemctl").
var reInert = compile(`(?i)` +
	`\b(since|after|before|during|from|until)\s+(the\s+|a\s+|an\s+|last\s+|our\s+|my\s+|this\s+|that\s+|yesterday'?s\s+|today'?s\s+)?([\w-]+\s+)?(upgrade|reboot|restart|install(ation)?|update|shutdown|deploy(ment)?|cleanup|clean-up|migration|patch|reset|rollback)\b` +
	`|(最后|最近|上)一?次.{0,4}?(重启|升级|关机|部署|安装|更新|修改|删除)` +
	`|\bconnection\s+(was\s+)?reset\b|\breset\s+by\s+peer\b|\beconnreset\b|连接(被)?重置` +
	`|被[^，。,.!?！？]{0,8}?(删|清|杀|停|关|改|覆盖|重启|卸|格式化|禁|锁|kill)(了|掉|除|过|用|定)?` +
	`|(已经|已|可以|能)?(停止|禁用|删除|删掉|安装|卸载|关闭|重启|清理|清空)(了|掉)?的` +
	`|(有没有人?|是不是有人|有人|谁|是否)(执行|运行|跑|敲|用)过[^，。,？?]{0,80}` +
	`|(最近|新|刚)?(新建|创建|新增|添加|升级|修改|更新|覆盖|替换)(过)?的(用户|账号|账户|文件|目录|包|软件|配置|配置文件|内容)` +
	`|\b(don'?t|do\s+not|never|not|no\s+need\s+to|without|won'?t|before\s+(i|we|you))\s+(want\s+to\s+|need\s+to\s+|going\s+to\s+|gonna\s+|yet\s+)?(delete|remove|kill|restart|stop|wipe|clean|clear|touch|change|erase|purge|rm|drop|reboot|uninstall|truncate|prune|deleting|removing|killing|restarting|stopping|wiping|cleaning|clearing|touching|changing|erasing|purging|dropping|rebooting|uninstalling|truncating|pruning)\b(\s+(anything|any\s+\w+|it|them|yet))?` +
	`|(先|暂时|暂且|还)?(不用|不要|不必|无需|先别|别|不)(要)?(删|清理|清空|杀|停|重启|卸载|动)(除|掉|了|进程)?(任何东西|任何文件|任何|东西|文件)?(，|,|\s)` +
	`|(安装|部署)(日志|记录|历史|时间|步骤|目录|路径|文档|说明|包)|(升级|重启|删除|卸载)(记录|历史|时间|步骤)` +
	`|(看|查看|显示|打开|读)(一下|下)?(这个|那个)?(安装|升级|部署|删除|卸载|清理)脚本` +
	`|(重启|升级|关机|部署)(之前|以前|之后|以后|前|后|的时候|时)[^，。,.!?！？]{0,4}?(看|查|检查|确认)` +
	`|(重启|升级|关机|部署)[^，。,.!?！？]{0,8}?(之前|以前|前)[，,]?[^。.!?！？]{0,20}?(哪些|什么)(检查|准备|步骤|注意)` +
	`|(是不是|是否|要不要|该不该|需不需要)(该|要|需要)?(扩容|缩容|重启|升级|清理|删除)` +
	`|(为什么|为啥)(会|又|突然)?(被)?[^，。,.!?！？]{0,6}?(停|关|删|杀|重启|挂|卸)` +
	`|(是不是|是否)(已经|被)?(重启|停|删|杀|卸载|安装|升级|关|改)(了|过|掉)` +
	`|(有没有|哪里|哪儿|是否|哪些地方|什么地方)(有)?(写到|写了|提到)` +
	`|\b(grep|search(ing)?\s+for|look(ing)?\s+for|find|with|for|contain(s|ing)?|mention(s|ing)?|match(es|ing)?)\s+["'“‘「][^"'”’」]{0,80}["'”’」]` +
	`|(搜索?|查找?|找|包含|出现|提到|grep)(一下)?\s*["'“‘「][^"'”’」]{0,80}["'”’」]` +
	`|(报|报错|提示|显示|输出|写着|说|saying|says|said|reads|shows|showing|prints|printed|logged|logs|errors?|messages?)[:：]?\s*["'“‘「][^"'”’」\n]{0,120}["'”’」]` +
	`|(搜|搜索|查找|找|grep)(一下|下)?\s*[A-Za-z][\w.-]*\s*(这一?行|这个词|这个关键字|关键字|字样|相关的行|的行)` +
	`|(表|飘|宣|张|发|弘|赞|颂)扬` +
	`|(找|向|给|问)谁(升级|上报)|升级(给|到)谁|(升级|上报)(流程|路径|机制|策略|给谁)` +
	`|\bescalat\w*\s+(to|path|policy|process|contacts?)\b|\bwho\s+(do|should|can)\s+(i|we)\s+escalate\b` +
	`|\b(check|via|with|using)\s+systemctl\b|(用|通过)\s*systemctl|\bsystemctl\s*(看|查|status\b)` +
	`|(下载|download|看|查看|显示|打开|show|cat|open|read|view)\s*(一下|下)?\s*[\w-]*(install|delete|remove|kill|reboot|restart|upgrade|reset|cleanup|clean|wipe|format|deploy|rollback|backup)[\w-]*\.(sh|py|txt|md|log|ya?ml|json|conf|ini|toml|docx?|pdf)\b`)

// inert is text with the mentions that ask for nothing blanked. The
// Chinese verbs' slips were repaired before (homophones, typo.go, the
// one list of them). Its cost is linear in len(text).
func inert(text string) string {
	return reportAside(checkAside(doneAside(reInert.ReplaceAllString(rePastEvent.ReplaceAllString(errorLines(text), " "), " "))))
}

// A report of what someone did ("我们上周把 docker 数据目录迁到了 /data",
// "有人昨天把 nginx 停了"): a subject, a time past, the action told done
// (了, 过), and no one asked to act or told to.
var (
	reZhReport    = compile(`^\s*(我|我们|咱们|他|他们|同事|运维|有人|大家|团队|开发)[^，。,？?]{0,3}?(昨天|前天|上周|上个?月|去年|刚才|刚刚|之前|前几天|昨晚|今早|已经)`)
	reZhReportAsk = compile(`帮|请|麻烦|给我|吧|再|要|得|需要|你|说|让|叫|要求|交代`)
)

// reportAside is text with each clause that reports what someone did
// blanked. Its cost is linear in len(text).
func reportAside(text string) string {
	if !hasHan(text) {
		return text
	}
	return mapClauses(text, func(cl string, _ bool) string {
		if reZhReport.MatchString(cl) && strings.ContainsAny(cl, "了过") && !reZhReportAsk.MatchString(cl) {
			return strings.Repeat(" ", len(cl))
		}
		return cl
	})
}

// reDoneQuestion asks whether an action was done: "nginx 停了吗",
// "删掉了没有". reHandedOver in its clause makes it a request put as a
// question: "你能帮我把 nginx 卸载了吗".
var (
	reDoneQuestion = compile(`(停|关|开|删|杀|重启|卸载|安装|升级|清理|清空)(掉|除|启)?(了|过|着)(吗|没有?|么)`)
	reHandedOver   = compile(`(帮|替|给)我?[^，。,？?]{0,4}?把|(能|可以|能否|可否|能不能)[^，。,？?]{0,4}?(帮|替)?[^，。,？?]{0,2}?把`)
)

// doneAside is text with each question whether an action was done
// blanked, unless its clause hands something over to be done. Its cost
// is linear in len(text).
func doneAside(text string) string {
	if !reDoneQuestion.MatchString(text) {
		return text
	}
	return mapClauses(text, func(cl string, _ bool) string {
		if reHandedOver.MatchString(cl) {
			return cl
		}
		return reDoneQuestion.ReplaceAllString(cl, " ")
	})
}

// reErrorLine is a program's message in pasted output: "rm: cannot
// remove '/x': Permission denied", "kill: (1234) - No such process".
var reErrorLine = compile(`(?i)^\s*((?:\.{0,2}/)?[A-Za-z][\w./-]*):\s+(?:[\w./-]+:\s+)?(?:line\s+\d+|cannot|can't|no such|permission denied|not found|command not found|invalid|missing|unable|failed|error|usage|\(|\[|无法|不能|没有那个)`)

// errorLines is text with each line that a program of shellKinds or a
// program run by its path printed (reErrorLine) blanked: it tells what happened and asks for
// nothing. Its cost is linear in len(text).
func errorLines(text string) string {
	if !strings.Contains(text, ": ") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if m := reErrorLine.FindStringSubmatch(l); m != nil {
			if _, ok := shellKinds[strings.ToLower(m[1])]; ok || strings.Contains(m[1], "/") {
				lines[i] = ""
			}
		}
	}
	return strings.Join(lines, "\n")
}

// Everyday Chinese checks of what happened: a viewing or checking verb,
// then who or which, then a destructive verb told as done ("帮我看看哪些服务
// 停了", "帮我查查是谁重启了 nginx", "帮我看下最近哪些包升级了") ask to see
// the event, not for it. A clause that goes on to a request ("然后杀了",
// "把它删了", "删了吧") is not one.
var (
	reZhCheck = compile(`看看|看下|看一下|查查|查下|查一下|查看|确认一下|确认下|确认|检查一下|检查|瞅瞅|瞧瞧|统计一下|列一下|列出|告诉我`)
	reZhWho   = compile(`谁|哪些|哪个|哪台|哪几|什么|几个|是否|是不是|有没有|都`)
	reZhThen  = compile(`然后|再|顺便|顺手|并且|并|接着|之后|完了|直接|把|将|给我|吧`)
	reZhDone  = compile(`过了|了|过`)
	// reWhoDid reads "谁把 nginx 停了", "哪个用户把日志删了" as who did it:
	// the 把 is the event's, not a request's.
	reWhoDid = compile(`(谁|哪个[^，。,\s把将给]{0,4}|哪些[^，。,\s把将给]{0,4}|什么[^，。,\s把将给]{0,4})(把|将|给)`)
)

// checkAside is text with each clause that checks what happened
// (reZhCheck, then reZhWho followed by one reZhDone — a second, as in
// "哪些文件没用了删了", is a request after a finding — and no reZhThen
// after the check) blanked after its checking verb. Its cost is linear
// in len(text).
func checkAside(text string) string {
	if !hasHan(text) {
		return text
	}
	return mapClauses(text, func(cl string, _ bool) string {
		if loc := reZhCheck.FindStringIndex(cl); loc != nil {
			after := cl[loc[1]:]
			if who := reZhWho.FindStringIndex(after); who != nil && !reZhThen.MatchString(reWhoDid.ReplaceAllString(after, "$1")) &&
				len(reZhDone.FindAllStringIndex(after[who[1]:], 2)) == 1 {
				return cl[:loc[1]] + strings.Repeat(" ", len(after))
			}
		}
		return cl
	})
}

// mapClauses is text with each clause — up to and with the next
// sentence or clause mark (，。,；;！!？? or a newline) — replaced by
// f(clause, last); last is true for the final one. Its cost is linear
// in len(text) plus f's.
func mapClauses(text string, f func(cl string, last bool) string) string {
	var b strings.Builder
	for rest := text; rest != ""; {
		end := strings.IndexAny(rest, "，。,；;！!？?\n")
		cl, next := rest, ""
		if end >= 0 {
			_, size := utf8.DecodeRuneInString(rest[end:])
			cl, next = rest[:end+size], rest[end+size:]
		}
		b.WriteString(f(cl, next == ""))
		rest = next
	}
	return b.String()
}
