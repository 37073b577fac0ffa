package builtin

import (
	"regexp"
	"strings"
	"unicode"
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
	// Reason explains a refusal.
	Reason string
	// Query is the file name or phrase of a download.
	Query string
	// input is the message classified.
	input string
}

// Whitelist is the commands the planner will run (the command_executor
// default).
var defaultWhitelist = []string{"ls", "cat", "grep", "head", "tail", "ps", "pwd", "whoami", "df", "free"}

var (
	reDangerWord = regexp.MustCompile(`(?i)(^|[\s"'` + "`" + `;&|(])(rm|rmdir|reboot|shutdown|halt|poweroff|init|kill|killall|pkill|sudo|su|mkfs(\.\w+)?|dd|chmod|chown|chattr|mv|cp|wget|curl|bash|sh|zsh|fish|python3?|perl|ruby|nc|ncat|iptables|systemctl|service|apt(-get)?|yum|dnf|useradd|userdel|passwd|crontab|truncate|shred|fdisk|mount|umount)(\s|$|;|&|\|)`)
	reShellMeta  = regexp.MustCompile("[;&|`$<>]|\\$\\(")
	reDangerZh   = regexp.MustCompile(`删除|删掉|移除文件|重启|关机|关闭服务器|杀掉|杀死|结束进程|终止进程|格式化|清空|修改权限|提权|卸载|安装软件|覆盖文件|写入文件`)
	reDangerEn   = regexp.MustCompile(`(?i)\b(delete|remove|erase|wipe|format|reboot|restart|shut ?down|power ?off|kill|terminate|install|uninstall|chmod|overwrite|escalate)\b`)

	reGreet  = regexp.MustCompile(`(?i)^\s*(你好|您好|嗨|哈喽|早上好|下午好|晚上好|早安|晚安|在吗|hi|hello|hey|good (morning|afternoon|evening)|yo)\b?[\s!！。.~?？]*$`)
	reThanks = regexp.MustCompile(`(?i)^\s*(谢谢|多谢|感谢|thanks|thank you|thx|再见|拜拜|bye|goodbye|好的|ok|okay)[\s!！。.~]*$`)
	reHelp   = regexp.MustCompile(`(?i)你能做什么|你会什么|你可以做什么|你是谁|有什么功能|能帮我做什么|怎么用你|帮助|^help$|what can you do|who are you|what are you|how do i use you|your (features|capabilities)`)

	reFile   = regexp.MustCompile(`[\w\-.]*\w\.(ya?ml|json|conf|cfg|ini|toml|log|txt|md|csv|pdf|sh|py|go|js|xml|html|env|sql|gz|zip|tar|bin|out|properties)\b`)
	reDown   = regexp.MustCompile(`(?i)下载|download|传给我|发给我|send me|give me the file|fetch the file|get (me )?(the )?file`)
	reThis   = regexp.MustCompile(`(?i)这个文件|该文件|此文件|这份|刚上传|刚才上传|刚刚上传|这个配置|这个日志|这个报告|这个作业|这个表|\bthis (file|config|log|report|document|doc)\b|\bthe file i (just )?uploaded\b|\bjust uploaded\b|\bthat file\b`)
	reThese  = regexp.MustCompile(`(?i)这两个|这几个|这些文件|这三个|两个文件|\bthese (two|three|files)\b|\bboth files\b|\bthe two files\b|\bcompare\b.*\bfiles?\b|对比|比较`)
	rePrev   = regexp.MustCompile(`(?i)之前上传|以前上传|前面上传|上次上传|早些时候上传|earlier|previously uploaded|before|uploaded (earlier|before)`)
	reAllUp  = regexp.MustCompile(`(?i)(所有|全部|哪些|列出|查看|显示|看看).{0,6}上传|上传的.{0,4}文件|我上传(了|的)|上传过|(list|show|what|which).{0,20}(uploads|uploaded files|files i uploaded|i uploaded|my files)|my uploads`)
	reRead   = regexp.MustCompile(`(?i)是多少|是什么|是哪|有哪些|有没有|包含|里面|里的|中的|内容|分析|总结|概括|摘要|关键|说了什么|错误|多少|几|哪个|what('s| is| are)|how many|which|summari[sz]e|analy[sz]e|content|read|show me what|errors?|port|key points|tell me about`)
	reCPU    = regexp.MustCompile(`(?i)cpu|处理器|负载|load average|\bload\b|核数|核心`)
	reMem    = regexp.MustCompile(`(?i)内存|memory|\bram\b|\bmem\b|swap`)
	reDisk   = regexp.MustCompile(`(?i)磁盘|硬盘|disk|存储空间|剩余空间|空间还剩|storage|free space|分区`)
	reAllRes = regexp.MustCompile(`(?i)系统资源|资源使用|资源占用|资源情况|系统状态|系统负载|运行状态|性能|健康|resource|system (status|usage|health)|server (status|health)|how is the (server|system|machine)|usage overview|uptime|运行了多久`)
	reSearch = regexp.MustCompile(`(?i)搜索|查找|找一下|找找|检索|搜一下|查一下|在哪里|在哪儿|在哪|哪里有|如何|怎么|怎样|文档|说明|手册|教程|配置方法|\bsearch\b|\bfind\b|\blook up\b|\bwhere\b|\bhow (do|to|can|should)\b|\bdocs?\b|\bdocumentation\b|\bguide\b`)
	reUpl    = regexp.MustCompile(`(?i)上传的|我上传|uploaded|my (files|uploads)`)
	reSys    = regexp.MustCompile(`(?i)如何|怎么|怎样|文档|说明|手册|教程|\bhow\b|\bdocs?\b|\bdocumentation\b|\bguide\b|readme`)
)

// command phrases that map to a whitelisted command.
var phraseCommands = []struct {
	re   *regexp.Regexp
	argv []string
}{
	{regexp.MustCompile(`(?i)进程|\bprocess(es)?\b|\bps\b|正在运行的程序|running programs`), []string{"ps", "aux"}},
	{regexp.MustCompile(`(?i)当前目录是|当前路径|工作目录|所在目录|\bpwd\b|working directory|current directory|which directory`), []string{"pwd"}},
	{regexp.MustCompile(`(?i)当前用户|我是谁|哪个用户|登录用户|\bwhoami\b|who am i|current user|which user`), []string{"whoami"}},
	{regexp.MustCompile(`(?i)列出.{0,6}(文件|目录)|目录下.{0,4}(文件|有什么)|有哪些文件|文件列表|\bls\b|list (the )?(files|directory|dir)|what files are (here|there)|directory listing`), []string{"ls", "-la"}},
	{regexp.MustCompile(`(?i)挂载|\bdf\b|mounted file ?systems|file ?system usage`), []string{"df", "-h"}},
	{regexp.MustCompile(`(?i)\bfree\b.{0,10}(内存|memory)?|free -h`), []string{"free", "-h"}},
}

// Classify finds the intent of one user message. hasUploads tells whether
// the conversation has uploads, which makes "this file" references
// meaningful.
func Classify(input string, hasUploads bool) Intent {
	in := classify(input, hasUploads)
	in.input = input
	return in
}

func classify(input string, hasUploads bool) Intent {
	text := strings.TrimSpace(input)
	lower := strings.ToLower(text)
	if text == "" {
		return Intent{Kind: "unknown"}
	}
	if argv, ok := explicitCommand(text); ok {
		if reason := refuseCommand(argv); reason != "" {
			return Intent{Kind: "refuse", Reason: reason}
		}
		return commandIntent(argv)
	}
	if reason := dangerous(text); reason != "" {
		return Intent{Kind: "refuse", Reason: reason}
	}
	switch {
	case reGreet.MatchString(text), reThanks.MatchString(text):
		return Intent{Kind: "smalltalk"}
	case reHelp.MatchString(text):
		return Intent{Kind: "help"}
	}
	if reDown.MatchString(text) {
		return downloadIntent(text, hasUploads)
	}
	if in, ok := uploadRefIntent(text); ok {
		return in
	}
	if in, ok := monitorIntent(lower); ok {
		return in
	}
	for _, pc := range phraseCommands {
		if pc.re.MatchString(text) {
			return commandIntent(pc.argv)
		}
	}
	if reSearch.MatchString(text) || reFile.MatchString(text) {
		return searchIntent(text)
	}
	return Intent{Kind: "unknown"}
}

// explicitCommand recognises "执行 ls -la", "run df -h", "`ps aux`" or a
// message that starts with a command name, and returns its argv.
func explicitCommand(text string) ([]string, bool) {
	t := strings.TrimSpace(text)
	for _, p := range []string{"请执行", "执行命令", "执行一下", "执行", "运行命令", "运行", "跑一下", "run the command", "run command", "run", "execute", "exec"} {
		if rest, ok := cutPrefixFold(t, p); ok {
			t = strings.TrimSpace(strings.TrimLeft(rest, ":：`'\" "))
			return splitCommand(t), t != ""
		}
	}
	t = strings.Trim(t, "`'\" ")
	first := strings.Fields(t)
	if len(first) == 0 {
		return nil, false
	}
	name := first[0]
	if isWhitelisted(name) && asciiOnly(t) {
		// "ls", "ps aux", "df -h": a bare command line.
		return splitCommand(t), true
	}
	if reDangerWord.MatchString(" "+t) && asciiOnly(t) && !strings.Contains(t, "?") {
		return splitCommand(t), true
	}
	return nil, false
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		rest := s[len(prefix):]
		if rest == "" || !unicode.IsLetter(rune(rest[0])) || !isASCIILetter(prefix[len(prefix)-1]) {
			return rest, true
		}
	}
	return "", false
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func asciiOnly(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// splitCommand splits a command line on spaces, honouring simple quotes.
func splitCommand(s string) []string {
	s = strings.Trim(strings.TrimSpace(s), "`")
	var out []string
	var cur strings.Builder
	quote := rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case quote == 0 && unicode.IsSpace(r):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func isWhitelisted(name string) bool {
	for _, w := range defaultWhitelist {
		if name == w {
			return true
		}
	}
	return false
}

// refuseCommand explains why argv will not be run, or returns "".
func refuseCommand(argv []string) string {
	if len(argv) == 0 {
		return "empty command"
	}
	line := strings.Join(argv, " ")
	if reShellMeta.MatchString(line) {
		return "shell operators (; & | > < ` $) are not allowed"
	}
	if !isWhitelisted(argv[0]) {
		return "command " + argv[0] + " is not in the whitelist (" + strings.Join(defaultWhitelist, " ") + ")"
	}
	return ""
}

// dangerous explains why a natural-language request will not be acted
// on, or returns "".
func dangerous(text string) string {
	switch {
	case reShellMeta.MatchString(text) && reDangerWord.MatchString(" "+text):
		return "piping or chaining commands into a shell is not allowed"
	case reDangerZh.MatchString(text):
		return "destructive or system-changing operations (" + reDangerZh.FindString(text) + ") are not allowed"
	case reDangerEn.MatchString(text):
		return "destructive or system-changing operations (" + strings.ToLower(reDangerEn.FindString(text)) + ") are not allowed"
	case reDangerWord.MatchString(" " + text):
		m := strings.TrimSpace(strings.Trim(reDangerWord.FindString(" "+text), " ;&|(\"'`"))
		return "command " + m + " is not allowed"
	}
	return ""
}

func commandIntent(argv []string) Intent {
	return Intent{Kind: "command", Tool: "command_executor", Args: map[string]any{"command": argv[0], "args": argsOf(argv)}}
}

func argsOf(argv []string) []any {
	out := make([]any, 0, len(argv)-1)
	for _, a := range argv[1:] {
		out = append(out, a)
	}
	return out
}

func monitorIntent(lower string) (Intent, bool) {
	cpu, mem, disk := reCPU.MatchString(lower), reMem.MatchString(lower), reDisk.MatchString(lower)
	all := reAllRes.MatchString(lower)
	n := 0
	for _, b := range []bool{cpu, mem, disk} {
		if b {
			n++
		}
	}
	metric := ""
	switch {
	case all || n > 1:
		metric = "all"
	case cpu:
		metric = "cpu"
	case mem:
		metric = "memory"
	case disk:
		metric = "disk"
	default:
		return Intent{}, false
	}
	return Intent{Kind: "monitor", Tool: "sys_monitor", Args: map[string]any{"metric": metric}}, true
}

func uploadRefIntent(text string) (Intent, bool) {
	args := map[string]any{}
	switch {
	case reThese.MatchString(text) && (reThis.MatchString(text) || strings.Contains(text, "文件") || strings.Contains(strings.ToLower(text), "file")):
		args["action"], args["reference"], args["count"] = "list", "these", 2
	case reThis.MatchString(text):
		args["reference"] = "this"
		args["action"] = "list"
		if reRead.MatchString(text) {
			args["action"] = "read"
		}
	case rePrev.MatchString(text) && (strings.Contains(text, "上传") || strings.Contains(strings.ToLower(text), "upload")):
		args["reference"] = "previous"
		args["action"] = "list"
		if reRead.MatchString(text) {
			args["action"] = "read"
		}
	case reAllUp.MatchString(text):
		args["action"], args["reference"] = "list", "all"
	default:
		return Intent{}, false
	}
	if ft := fileType(text); ft != "" {
		args["file_type"] = ft
	}
	return Intent{Kind: "upload_ref", Tool: "file_upload", Args: args}, true
}

// fileType maps words for kinds of files to a name filter.
func fileType(text string) string {
	lower := strings.ToLower(text)
	for _, ft := range []struct{ word, typ string }{
		{"日志", "log"}, {"log", "log"}, {"配置", ""}, {"yaml", "yaml"}, {"yml", "yml"}, {"json", "json"},
		{"pdf", "pdf"}, {"报告", ""}, {"csv", "csv"}, {"表格", "csv"},
	} {
		if strings.Contains(lower, ft.word) {
			return ft.typ
		}
	}
	return ""
}

func downloadIntent(text string, hasUploads bool) Intent {
	if f := reFile.FindString(text); f != "" {
		return Intent{Kind: "download", Tool: "semantic_search", Query: f,
			Args: map[string]any{"query": f, "scope": "all", "top_k": 1}}
	}
	if reThis.MatchString(text) || strings.Contains(text, "这个") || strings.Contains(strings.ToLower(text), "this") {
		return Intent{Kind: "download", Tool: "file_upload", Args: map[string]any{"action": "list", "reference": "this"}}
	}
	q := cleanQuery(reDown.ReplaceAllString(text, " "))
	if q == "" {
		return Intent{Kind: "unknown"}
	}
	return Intent{Kind: "download", Tool: "semantic_search", Query: q, Args: map[string]any{"query": q, "scope": "all", "top_k": 1}}
}

func searchIntent(text string) Intent {
	scope := "all"
	switch {
	case reUpl.MatchString(text):
		scope = "uploads"
	case reSys.MatchString(text):
		scope = "system"
	}
	q := cleanQuery(text)
	if f := reFile.FindString(text); f != "" && len(q) > 3*len(f) {
		q = f
	}
	return Intent{Kind: "search", Tool: "semantic_search", Args: map[string]any{"query": q, "scope": scope, "top_k": 3}}
}

var reFiller = regexp.MustCompile(`(?i)^(请|帮我|麻烦|能否|可以|能不能|帮忙|给我)+|(一下|吧|呢|吗|啊|呀)+[?？!！。.]*$|^(please|can you|could you|help me|i want to|i need to)\s+|[?？!！。]+$|^(search|find|look up|搜索|查找|找一下|找找|检索|搜一下|查一下)\s*(for)?\s*`)

// cleanQuery trims politeness and search verbs around a query.
func cleanQuery(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < 4; i++ {
		t := strings.TrimSpace(reFiller.ReplaceAllString(s, ""))
		if t == s {
			break
		}
		s = t
	}
	return s
}
