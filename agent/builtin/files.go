package builtin

import (
	"strings"

	"opsassist/internal/pathtext"
)

var (
	reFile = compile(`[\w\-.]*\w\.(ya?ml|json|conf|cfg|ini|toml|log|txt|md|csv|pdf|sh|py|go|js|xml|html|env|sql|gz|zip|tar|bin|out|properties|docx?|xlsx?|pptx?|tgz|bz2|xz|7z|rar|jar|war|png|jpe?g|bak|dump)\b`)
	// reDownName is a file to download by its name in any script
	// ("架构设计.docx"); by its path, pathtext.First and spacedFile read
	// it.
	reDownName = compile(`(?:^|[\s"'“‘「:：,，(（])([\p{L}\p{N}_\-]+(?:\.[\p{L}\p{N}_\-]+)*\.[A-Za-z][A-Za-z0-9]*)\b`)
	// reFileNoun names a kind of file.
	reFileNoun = compile(`(?i)文件|文档|日志|配置|报告|手册|脚本|压缩包|备份|附件|\b(files?|docs?|documents?|logs?|configs?|reports?|guides?|manuals?|scripts?|backups?|attachments?)\b`)

	// reDown asks for a download; reDownWeak does only about a file.
	reDown     = compile(`(?i)下载|download|(下|拉|拷|弄)下来|^\s*dl\s+\S`)
	reDownWeak = compile(`(?i)\bpull (it )?down\b|(发|传)给我|给我(发|传)|发我|传我|send (me|over)|\bgrab\b|\bfetch\b|copy of|give me the file|get (me )?the file`)

	// References to uploads: the newest, the newest few, earlier ones,
	// all of them.
	reThis = compile(`(?i)(这|该|此|那)(个|份|一份|篇|张)?\s*(文件([^夹]|$)|配置|日志|报告|作业|文档|表格?|附件|log|yaml|yml|json|pdf|csv|txt|conf)|刚(刚|才)?(上传|传|发)([^完版布]|$)|刚才(那|这)(个|份)|\bthis (file|config|log|report|document|doc|attachment|yaml|json|pdf|csv)\b|\b(the|that) (file|config|log|document|doc|report|one) (that )?i (just )?(uploaded|sent|shared|attached)\b|\bjust (uploaded|sent|shared|attached)\b|\bthat file\b`)
	// reCount is a count of uploads: "这两个", "两个yaml", "these two
	// files", "the two configs".
	reCount   = compile(`(?i)(这|那)(两|俩|三|几)(个|份)?(?:[^个份行条次天年遍点分秒处]|$)|(两|俩|2|三|3)\s*(个|份)\s*(上传的)?\s*(文件|配置|日志|yaml|yml|json|log|pdf|csv|txt)|\b(these|those|both)\b|\b(the|these|those) (two|three|2|3) \w+|\b(two|three) (files|configs|logs|documents|docs|uploads)\b`)
	reCompare = compile(`(?i)对比|比较|区别|差异|不同|\bdiff\b|\bcompare\b|\bdifferences?\b`)
	// reOtherThing names things other than files one may compare.
	reOtherThing = compile(`(?i)进程|命令|服务|用户|机器|服务器|\b(process(es)?|commands?|services?|users?|servers?|machines?)\b`)
	reFileKind   = compile(`(?i)文件|配置|日志|yaml|yml|json|log|pdf|csv|txt|\b(files?|configs?|docs?|documents?|uploads?)\b`)
	rePrev       = compile(`(?i)(之前|以前|前面|上次|上回|早些时候|先前|早先|昨天|刚开始|[\d一两二三四五六七八九十几半]+\s*(个)?(小时|分钟|天)前)我?.{0,3}(上传|传|发|给(你|您))|(之前|以前|前面|上次|上回|先前|早先)(的|那个|那份)?.{0,2}(文件|日志|日誌|配置|报告|log|yaml|json)|\b(gave|sent|shared with) you\b.{0,12}\b(earlier|before|previously)\b|\b(log|file|config)s? from before\b|\b(uploaded|sent|shared)\b.{0,20}\b(earlier|before|previously|yesterday|last time)\b|\b(earlier|previous(ly)?|older)\b.{0,12}\b(upload(ed|s)?|sent)\b|\b(the|that) (earlier|previous|older|first) (log|file|config|yaml|upload|one)s?\b|\b(uploaded|sent|gave you|shared)\b.{0,30}\bago\b|(之前|以前|前面|上次|先前|早先)(发|传|上传)的`)
	reAllUp      = compile(`(?i)(所有|全部|哪些|列出|查看|显示|看看).{0,6}上传|上传的?(记录|历史|列表|清单)|\bupload (history|list|records)\b|上传的.{0,4}文件|我上传(了|的)|上传过|我.{0,3}(上传|传|发给你|给你发)(了|过)?.{0,6}(哪些|什么|几个|多少|啥)|(list|show|what|which).{0,20}(uploads|uploaded files|files i uploaded|i uploaded|my files)|my uploads|\b(files?|uploads|documents?)\b.{0,10}\bi('ve| have)? (uploaded|sent|shared)\b|\b(have|did) i (upload(ed)?|sen[dt]|share(d)?)\b`)
	// reMeta asks about files rather than their content, which list
	// answers.
	reMeta = compile(`(?i)多大|大小|什么时候|何时|文件名|叫什么|哪些文件|文件(都|还)?有?哪些|什么文件|几个文件|多少个?文件|\bsizes?\b|\bhow (big|large)\b|\bwhen\b|\b(file ?)?names?\b|\b(which|what) files\b|\bhow many files\b`)

	// Searching inside the uploads rather than for one of them.
	reSearchVerb = compile(`(?i)搜|找|检索|查找|提到|提及|出现|grep|\bmention(s|ed)?\b|\bsearch\b|\bfind\b|\blook for\b|\blocate\b`)
	reInUploads  = compile(`(?i)上传的.{0,10}(里|中|内)|(在|从)我?(之前|刚才)?(上传|传)的|(上传|传|发)(上来|过来|给你)的.{0,10}(里|中|内)|\b(in|across|through|within|from|among)\s+(the\s+|my\s+|all\s+)?(files?|docs?|documents?|logs?|configs?|uploads)(\s+that)?\s+i('ve| have)?\s+(just\s+)?(uploaded|sent|shared)\b|\b(search|grep)\s+(through\s+)?(my|the)\s+uploads\b|\b(in|across|through)\s+my\s+uploads\b`)
	// reFindWord asks whether words occur in files: "有没有 retry 这个词",
	// "哪里出现了 X", "is the word X anywhere in…", "which talks about X".
	reFindWord      = compile(`(?i)这个词|这个字|字样|关键字|关键词|出现|写到|写了|提到|查一?下|\bthe (word|string|phrase|term)\b|\banywhere\b|\b(talks?|talked|say|says|said) about\b|\bmention(s|ed)?\b`)
	reUplSearchLead = compile(`(?i).*?(搜索一下|搜一下|搜搜|搜索|找一下|找找|查找|检索|找|搜)\s*`)

	reSearch = compile(`(?i)搜索|查找|找一下|找找|检索|搜一下|查一下|在哪里|在哪儿|在哪|哪里有|如何|怎么([^样]|$)|怎样|文档|说明|手册|教程|资料|指南|步骤|流程|配置方法|哪个文件|哪些文件|\bsearch\b|\bfind\b|\blook up\b|\bwhere\b|\bhow (do|to|can|should)\b|\bdocs?\b|\bdocumentation\b|\bguides?\b|\bmanual\b|\bprocedures?\b|\binstructions\b|\bsteps\b|\btutorials?\b|\brecommended\b|\bbest practices?\b|\b(the|a) way to\b|\bwhich (file|config|document|doc)\b|\bwhat file\b`)
	// reUpl is the user's own uploads; "上传的文件会保存多久" is about the
	// system instead.
	reUpl = compile(`(?i)我.{0,2}(上传|传)的|我的上传|\bi (just )?uploaded\b|\bmy (files|uploads)\b`)
	// reGeneralQ asks how the system behaves rather than about one's
	// files: "上传的文件会保存多久？", "what's the upload limit?".
	reGeneralQ = compile(`(?i)多久|多长时间|上限|限制|最大|支持|能不能|可不可以|会不会|如何|怎么([^样]|$)|怎样|\bhow (long|do|to|can|many)\b|\blimits?\b|\bmax(imum)?\b|\bsupport(ed|s)?\b|\bpolicy\b|\bretention\b`)
	reSys      = compile(`(?i)如何|怎么([^样]|$)|怎样|文档|说明|手册|教程|方法|资料|步骤|指南|流程|在哪(里|儿)?(配置|设置|修改|定义|改)|\bhow\b|\bdocs?\b|\bdocument(ed|ation|s)?\b|\bguides?\b|\bmanual\b|\bprocedures?\b|\binstructions\b|\bsteps\b|\btutorials?\b|\brecommended\b|\bbest practices?\b|\b(the|a) way to\b|\bfaq\b|readme|\bwhere (do|can|should|would) (i|we|you)\b|多久|多长时间|上限|限制|最大|支持|\blimits?\b|\bmax(imum)?\b|\bsupport(ed|s)?\b|\bpolicy\b|\bretention\b`)
)

// downloadIntent is a request for a file: by absolute path straight to
// file_download; by name, first semantic_search to find it; "this file",
// first file_upload to find the newest upload.
func downloadIntent(text string) (Intent, bool) {
	object := reFile.MatchString(text) || reFileNoun.MatchString(text) || absPath(text) != "" || reDownName.MatchString(text) ||
		strings.Contains(text, "这个") || strings.Contains(strings.ToLower(text), "this")
	if !object || !reDown.MatchString(text) && !reDownWeak.MatchString(text) {
		return Intent{}, false
	}
	if p, ok := pathtext.First(text, func(p pathtext.Path) bool { return p.Abs && !p.Dir() }); ok {
		f := spacedFile(text, p)
		return Intent{Kind: "download", Tool: "file_download", Query: f, Args: map[string]any{"file_path": f}}, true
	}
	f := reFile.FindString(text)
	if m := reDownName.FindStringSubmatch(text); f == "" && m != nil && reDown.MatchString(text) {
		f = m[1] // a name in another script, or with another extension
	}
	if f != "" {
		return Intent{Kind: "download", Tool: "semantic_search", Query: f,
			Args: map[string]any{"query": f, "scope": "all", "top_k": 1}}, true
	}
	if reThis.MatchString(text) || strings.Contains(text, "这个") || strings.Contains(strings.ToLower(text), "this") {
		return Intent{Kind: "download", Tool: "file_upload", Args: map[string]any{"action": "list", "reference": "this"}}, true
	}
	q := cleanQuery(reDownWeak.ReplaceAllString(reDown.ReplaceAllString(text, " "), " "))
	return Intent{Kind: "download", Tool: "semantic_search", Query: q, Args: map[string]any{"query": q, "scope": "all", "top_k": 1}}, true
}

// uploadSearchIntent is a search inside the uploads' content: "在我上传的
// 文件里找一下数据库密码", "search my uploads for X".
func uploadSearchIntent(text string) (Intent, bool) {
	if !reSearchVerb.MatchString(text) && !reFindWord.MatchString(text) || !reInUploads.MatchString(text) {
		return Intent{}, false
	}
	q := ""
	if m := reQuoted.FindStringSubmatch(text); m != nil {
		q = m[1]
	} else {
		rest := reInUploads.ReplaceAllString(text, " ")
		if loc := reUplSearchLead.FindStringIndex(rest); loc != nil && loc[1] < len(rest) {
			rest = rest[loc[1]:]
		}
		q = cleanQuery(rest)
	}
	if q == "" {
		q = cleanQuery(text)
	}
	return Intent{Kind: "search", Tool: "semantic_search", Args: map[string]any{"query": q, "scope": "uploads", "top_k": 3}}, true
}

// uploadRefIntent is a reference to uploaded files, to list or read.
func uploadRefIntent(text string) (Intent, bool) {
	args := map[string]any{}
	// A question about one upload is about its content unless it asks
	// about the file itself.
	readOrList := func() {
		args["action"] = "read"
		if reMeta.MatchString(text) {
			args["action"] = "list"
		}
	}
	named := len(reFile.FindAllString(text, -1))
	switch {
	case reCompare.MatchString(text) && named >= 2:
		// "compare config.yaml and config_old.yaml": the newest uploads.
		args["action"], args["reference"], args["count"] = "list", "these", named
	case reCount.MatchString(text) && (reFileKind.MatchString(text) || reCompare.MatchString(text) && !reOtherThing.MatchString(text)):
		n := 2
		if m := reCount.FindString(text); strings.ContainsAny(m, "三3") || strings.Contains(strings.ToLower(m), "three") {
			n = 3
		}
		args["action"], args["reference"], args["count"] = "list", "these", n
	case rePrev.MatchString(text) && (reFileKind.MatchString(text) || strings.Contains(text, "上传")):
		args["reference"] = "previous"
		readOrList()
	case reThis.MatchString(text):
		args["reference"] = "this"
		readOrList()
	case reAllUp.MatchString(text) && !(reGeneralQ.MatchString(text) && !reUpl.MatchString(text)):
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

// searchIntent is a document or file search; how-to and documentation
// questions search the system documents, mentions of uploads the uploads.
func searchIntent(text string) (Intent, bool) {
	if !reSearch.MatchString(text) && !reFile.MatchString(text) && !reGeneralQ.MatchString(text) {
		return Intent{}, false
	}
	scope := "all"
	switch {
	case reUpl.MatchString(text):
		scope = "uploads"
	case reSys.MatchString(text):
		scope = "system"
	}
	q := cleanQuery(text)
	// A file name and little else: the file name is the query.
	if f := reFile.FindString(text); f != "" && len([]rune(strings.TrimSpace(strings.Replace(q, f, "", 1)))) <= 6 {
		q = f
	}
	return Intent{Kind: "search", Tool: "semantic_search", Args: map[string]any{"query": q, "scope": scope, "top_k": 3}}, true
}

var reFiller = compile(`(?i)^(请问|请|帮我|麻烦|能否|可以|能不能|帮忙|给我|我想|我要)+|(一下|吧|呢|吗|啊|呀)+[?？!！。.]*$|^(please|can you|could you|help me|i want to|i need to)\s+|[?？!！。]+$|^(search( through)?|find|look up|look( through| into)?|grep|scan|grab|fetch|get|搜索|查找|找一下|找找|检索|搜一下|查一下)\s*(一下)?\s*(for)?\s*|\s*(在哪里|在哪儿|在哪|在什么地方|for me)$`)

// cleanQuery trims politeness and search verbs around a query.
func cleanQuery(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i < 4; i++ {
		t := strings.TrimSpace(reFiller.ReplaceAllString(s, ""))
		if t == s {
			break
		}
		s = t
	}
	return s
}
