package builtin

import (
	"sort"
	"strings"
	"unicode"

	"opsassist/internal/pathtext"
)

// Words that carry meaning across phrasings. Each names a concept, not
// a training case: a document or procedure, a viewing verb, a reference
// to the user's uploads, a time, a listing.
var (
	// reDocWord names documents and procedures: a resource word under
	// one ("值班手册里磁盘告警的处理流程", "a runbook for a full disk") is
	// about the document, not the machine.
	reDocWord = compile(`(?i)文档|流程|手续|审批|报备|手册|\bnaming conventions?\b|预案|规范|说明书?|教程|指南|步骤|检查项|清单|注意事项|最佳实践|规定|制度|方案|wiki|知识库|runbooks?|playbooks?|\bsops?\b|\bdocs?\b|documentation|documented|\bguides?\b|\bmanuals?\b|procedures?|checklists?|policy|policies|\bpostmortems?\b|\bescalation\b|on-?call|\b(incident|approval|release|review|onboarding|response|deployment|deploy|change|handover|backup|recovery|rollback) process\b|\bhow (do|should|would|can) (we|i|you|one)\b|\bhow to\b|\bwhat does (our|the) \w+ say\b|best practices?|\bsteps\b|\binstructions\b|\bfaq\b`)
	// reProcWord names documents and procedures less plainly — where
	// something is configured, a threshold, what to check before a
	// release, how something is meant to be done. It governs resource
	// words as reDocWord does, but only for the decision: the safety
	// stage reads reDocWord alone, so these words never excuse a
	// destructive request.
	reProcWord = compile(`(?i)资料|\bhow (is|are) (\w+ ){1,3}(supposed|meant) to\b|\bhow (is|are) (\w+ ){1,2}(renewed|restored|rotated|deployed|handled|provisioned|backed up|rolled out|released)\b|\bbefore (a |the |we )?(release|deploy|deployment|rollout|launch|upgrade|go-live)\b|发版前|发布前|上线前|上架|要注意(什么|哪些)|\bwhat should (i|we) (check|do|know|prepare|watch)\b|(哪个|什么|哪些)(文件|配置文件)(里|中)?(配置|定义|设置|写)|\b(which|what) (file|config) (defines|sets|configures|controls)\b|阈值|(在哪|哪里|哪儿)(里)?(配置|设置|定义|配)的?|(咋|怎么|如何)配置?|\bthresholds?\b|\b(where|how) (is|are) .{0,40}\bconfigured\b|\bescalate\b`)
	// reViewVerb asks to see, read or search a file's lines.
	reViewVerb = compile(`(?i)显示|看|瞄|瞧|瞅|查看|打印|输出|读|打开|展示|列出|搜|找|查|写的|写了|内容|里有|grep|\b(show|display|print|view|read|open|cat|dump|output|see|search|find|look|check|head|tail|grep|inside|contents?|contains?|say|says)\b`)
	// reLines names lines of a file.
	reLines = compile(`(?i)[\d零一二两三四五六七八九十百]+\s*行|前几行|最后几行|开头|末尾|\blines?\b|\bhead\b|\btail\b`)
	// reUploadWord names uploading; reListWord asks which or lists.
	reUploadWord = compile(`(?i)上传|传给你|发给你|给你的|传的|传了|传过|(你|您)(这边|那边)?收到了?我|\b(you )?(got|received) from me\b|\b(given|gave|sent|shared with) you\b|\bupload(s|ed|ing)?\b|\battach(ed|ments?)\b|\bi (sent|shared|gave) you\b`)
	reListWord   = compile(`(?i)哪些|哪几个|什么文件|列出|列表|清单|多少个|几个|\b(list|which|what files|how many)\b`)
	reTimeWord   = compile(`(?i)今天|昨天|刚才|刚刚|之前|上次|最近|早上|\b(today|yesterday|earlier|recently|last (week|time)|this morning)\b`)
	reMyWord     = compile(`(?i)我的|我(上传|传|发)|\bmy\b|\bi (uploaded|sent|shared)\b`)
	reQuestion   = compile(`(?i)[?？]|吗|呢|么|多少|怎么|如何|什么|哪|是否|有没有|\b(how|what|which|why|when|where|is|are|do|does|can|should)\b`)
	// reRunning asks whether something runs: a question for ps.
	reRunning = compile(`(?i)跑着|在跑|还在|运行着|在运行|活着|挂了|起着|起来了|\b(is|are)\s+\S+\s+(up|running|alive|down|dead)\b|\bstill (up|running|alive)\b|\b(using|hogging|eating)\b`)
	reRunOut  = compile(`(?i)\b(run|running|ran|runs) (out|low)\b`)
	// reHowQ asks how something is done or meant to be.
	reHowQ = compile(`(?i)怎么(做|办|弄|处理|配置|设置|操作|搞|恢复|部署|续期)|如何|怎样|注意(什么|哪些|事项)|(要|需要)做(什么|哪些)|(准备|检查)(什么|哪些)|发版|上线前|发布前|\bhow (do|does|should|can|would|to)\b|\bhow (is|are) (\w+ ){1,3}\w+ed\b|\b(supposed|meant) to\b|\bwhat('s| is) the (right |correct |best )?way\b|\bwhat should (i|we) (check|do|know|prepare|watch)\b|\bbefore (a |the |we )?(release|deploy|deployment|rollout|launch|upgrade|go-live)\b`)
	// reTopic asks for what is said about a subject.
	reTopic = compile(`(?i)\banything (about|on|regarding|related)\b|\b(talk|talks|talked|say|says|said) (anything )?about\b|提到|讲(了)?.{0,4}(什么|啥)|\b(mentions?|regarding|related to)\b|有没有.{0,8}(相关|关于|提到)|关于|相关`)
	// reCulprit asks which program uses a resource: a question for ps.
	reCulprit = compile(`(?i)(谁|什么|哪个|哪些|啥).{0,6}(占用|占着|吃|耗|用了)|(占用|吃|耗).{0,4}(最多|最高|最大)|\b(what|who|which)('s|'re|\s+is|\s+are)?(\s+\S+){0,3}\s+(using|uses|use|hogging|hogs|eating|eats|chewing|consuming|consumes|taking up|takes up|burning)\b|\btop (consumers?|processes)\b`)
	// reContentAsk asks what files say: a read, not a list.
	reContentAsk = compile(`(?i)总结|概括|概述|讲了|讲的|讲什么|说了|内容|分别是|干嘛|做什么用|是做什么|有什么问题|分析|读一遍|读(一下|下|读|完)|过一遍|通读|整体看|综合看|每个说说|配置了(哪些|什么)|里(面)?(都)?有(什么|啥)|写了(什么|啥|些什么)|\bwhat('s|s| is| are) in\b|\b(summar(y|ise|ize)|overview|explain|describe|read|contents?|contain|configured|what (does|do) (it|they|each)|what each|in common|tell me (what|about)|go(ing)? through|gist|each (file|one))\b`)
	// reKeyAsk asks for a setting's value: a key question.
	reKeyAsk = compile(`(?i)端口|地址|密码|用户名|超时|级别|多少|是什么|配了|设置|开了|启用|\b(port|host|address|url|timeout|level|value|set to|setting|enabled?|limit|max_\w+|what's the|what is the)\b`)
	// reLookThrough goes through texts for something: a search.
	reLookThrough = compile(`(?i)\b(look|go|dig|comb|scan|read)\s+(through|over)\b|翻(一下|下|翻|一翻)`)
	reAllWord     = compile(`(?i)所有|全部|到处|\b(all|everything|everywhere|anywhere)\b`)
)

// features are the decision's evidence about one message: what the
// hand-written rules answer, the concepts it names and how they combine,
// and its words. Each is a name the model has a weight for; names it has
// none for count for nothing.
func (c *commands) features(text string, hasUploads bool, hits *[len(ruleNames)]Intent) []string {
	fs := make([]string, 0, 64)
	add := func(f ...string) { fs = append(fs, f...) }

	first := "none"
	for i, in := range hits {
		if in.Kind == "" {
			continue
		}
		l := labelOf(in)
		if first == "none" {
			first = l
		}
		add("rule:"+ruleNames[i], "rule:"+ruleNames[i]+":"+l)
	}
	add("first:" + first)

	lower := strings.ToLower(text)
	// Concepts are read from the prose, not from the names in it:
	// docs/deploy.md names no document, /proc/meminfo no memory.
	prose := strings.ToLower(names(text))
	docProse := reDocAside.ReplaceAllString(prose, " ")
	doc := reDocWord.MatchString(docProse) || reProcWord.MatchString(docProse)
	path := namesPath(text)
	file := reFile.MatchString(lower)
	view := reViewVerb.MatchString(prose)
	viewFile := view && (path || file) && !doc // "what does the playbook say to do when /var fills up"
	if doc {
		add("doc", "doc&"+first)
	}
	if viewFile {
		add("view+file&" + first)
	}
	if reHowQ.MatchString(prose) {
		add("howq", "howq&"+first)
	}
	// A file by its name alone, looked for or asked where it is: a
	// search for it ("找一下 deploy.sh", "nginx.conf 放在哪个目录").
	if file && !path && (reSearchVerb.MatchString(prose) || reWhere.MatchString(prose)) && !reLines.MatchString(prose) {
		add("find+name")
	}
	// A setting asked of a file by its name: a read of that upload
	// ("settings.ini 里 redis 的端口是多少").
	if file && !path && reKeyAsk.MatchString(prose) && !reDown.MatchString(text) {
		add("key+name")
	}
	if reTopic.MatchString(prose) {
		add("topic")
	}
	if reGeneralQ.MatchString(prose) {
		add("general")
	}
	if path {
		add("path")
	}
	if file {
		add("file")
	}
	if (path || file) && reLines.MatchString(prose) {
		add("file+lines")
	}
	if viewFile {
		add("view+file")
		if reLines.MatchString(text) {
			add("view+file+lines")
		}
		if reQuoted.MatchString(text) {
			add("view+file+quoted")
		}
	}
	if namedCommand(text) != "" && (path || file) {
		add("filecmd+file")
	}
	// Resource words count only where nothing else governs them: a
	// document or procedure, or a file being viewed.
	cpu, mem, disk, all := reCPU.MatchString(prose), reMem.MatchString(prose), reDisk.MatchString(prose), reAllRes.MatchString(prose)
	// Nor where the question is who uses them: "what's eating my cpu"
	// asks for the programs (ps), not the figure.
	culprit := reCulprit.MatchString(prose)
	for _, r := range []struct {
		on   bool
		name string
	}{{cpu, "cpu"}, {mem, "memory"}, {disk, "disk"}, {all, "all"}} {
		switch {
		case !r.on:
		case doc:
			add("doc+res")
		case viewFile:
			add("file+res")
		case culprit:
			add("culprit:" + r.name)
		case r.name == "all" && (cpu || mem || disk):
			add("all+named") // "机器跑得慢，CPU 使用率是多少": the named one is asked
		default:
			add("res:" + r.name)
		}
	}
	// What asks about programs or mounts is a command's question even
	// where it names a resource: "谁在占用这么多内存", "show disk partitions".
	res := cpu || mem || disk || all
	for _, q := range []struct {
		on   bool
		name string
	}{{culprit, "culprit"}, {reMount.MatchString(prose), "mounts"}} {
		if q.on {
			add(q.name)
			if res {
				add(q.name + "+res")
			}
		}
	}
	if running(prose) {
		add("running")
	}
	if reProcess.MatchString(prose) {
		if doc {
			add("doc+proc")
		} else {
			add("proc")
		}
	}
	up := reUploadWord.MatchString(text)
	if up {
		add("upload")
		if reListWord.MatchString(text) {
			add("upload+list")
		}
		if reTimeWord.MatchString(text) {
			add("upload+time")
		}
		if reMyWord.MatchString(text) {
			add("upload+my")
		}
		if reSearchVerb.MatchString(text) || reFindWord.MatchString(prose) {
			if uploadQuery(text) == "" {
				add("up:noquery")
			} else {
				add("upload+search")
			}
		}
		if reTopic.MatchString(prose) {
			add("upload+topic")
		}
	}
	this, count, prev := reThis.MatchString(text), reCount.MatchString(text), rePrev.MatchString(text)
	if this || count || prev {
		add("ref")
	}
	// Which uploads, and what about them: the files themselves (names,
	// sizes, times: a list) or what they say (a read); a search of them
	// with nothing left to look for is a reference ("找一下我上传的日志").
	if up || this || count || prev {
		for _, q := range []struct {
			on   bool
			name string
		}{
			{this, "this"}, {count, "count"}, {prev, "prev"}, {reAllUp.MatchString(text), "allup"},
			{reMeta.MatchString(text), "meta"}, {reContentAsk.MatchString(prose), "content"},
			{reCompare.MatchString(prose), "compare"}, {reKeyAsk.MatchString(prose), "key"},
		} {
			if q.on {
				add("up:" + q.name)
			}
		}
		// Which files and what about them, together: every upload's
		// content is a read, every upload's names a list.
		content, meta := reContentAsk.MatchString(prose), reMeta.MatchString(text)
		everyUp := reAllUp.MatchString(text) || reEveryUpload.MatchString(text)
		switch {
		case everyUp && content && !meta:
			add("up:every+content")
		case everyUp && meta:
			add("up:every+meta")
		}
	}
	if reDown.MatchString(text) || reDownWeak.MatchString(text) {
		add("down")
		if file || path {
			add("down+file")
		}
	}
	if reErrorQuestion.MatchString(text) {
		add("err")
	}
	if reQuestion.MatchString(text) {
		add("question")
	}
	if reAllWord.MatchString(text) {
		add("allword")
	}
	add("bias")
	if argv, concept := c.proseCommand(text); argv != nil {
		add("pc", "pc:"+concept) // a command of the tiers described in words
	}
	if name, prose := c.tierWord(text); name != "" {
		switch {
		case reRunName.MatchString(lower) && strings.Contains(reRunName.FindString(lower), name):
			add("cmd:run") // "give me the output of free", "执行一下 uptime"
		case prose:
			add("cmd:prose")
		default:
			add("cmd:named")
		}
	}
	if reQuoted.MatchString(text) && (reSearchVerb.MatchString(prose) || reLookThrough.MatchString(prose)) && !path && !file {
		add("search+quoted") // "search for 'max_connections'"
	}
	add(lexical(lower)...)
	sort.Strings(fs)
	return dedupe(fs)
}

// reDocAside is a document word that governs nothing: refused ("not a
// doc", "不要文档") or the speaker's situation ("I just joined the
// on-call rotation", "我在值班"). It is blanked for the decision only;
// the safety stage reads the words as they are.
var reDocAside = compile(`(?i)\b(not|no|don'?t (want|need)( a| the| any)?|without|rather than|instead of|never mind)( a| the| any| some)? (doc|docs|documentation|runbook|wiki|manual|guide|playbook|procedure)s?\b|(不要|不是|不用|别|不需要|不看)(给我)?(查|看|找|翻)?(文档|手册|wiki|流程)|\b(i('m| am)|i just joined|i joined|joined|i'm new (to|on)|new to)( the)? on-?call( rotation| shift| team)?\b|(我|我们)(在|刚)?(值班|轮值)`)

// reWhere asks where something is.
var reWhere = compile(`(?i)在哪|哪里|哪儿|(哪个|什么)(目录|路径|位置)|\bwhere\b|\blocate\b`)

// reRunName asks to run a program or see its output: the word after it
// is the program, or the word before "的输出" ("把 free 的输出给我").
var reRunName = compile(`(?:\b(?:output of|results? of|run|exec|execute)|执行(?:一下|下)?|运行(?:一下|下)?|跑(?:一下|下))\s*[a-z][\w.-]*|[a-z][\w.-]*\s*(?:命令)?\s*的?\s*(?:输出|结果|返回)`)

// reName is a path, file name or quoted string: a name, not prose.
var reName = compile(`(?:[\w.\-]*/[\w.\-/*]*)|[\w\-.]*\w\.[A-Za-z]\w*|["“'‘「][^"”'’」]*["”'’」]`)

// names is text with its paths, file names and quoted strings blanked.
func names(text string) string { return reName.ReplaceAllString(pathtext.Blank(text), " ") }

// maxLexical bounds the words of one message that become features: a
// long message is decided by its first words and its concepts, at a
// cost linear in its length.
const maxLexical = 256

// lexical are a message's words as features: each English word, and
// each pair of adjacent Chinese characters.
func lexical(lower string) []string {
	var out []string
	var prev rune
	word := strings.Builder{}
	flush := func() {
		if word.Len() > 1 {
			out = append(out, "w:"+stem(word.String()))
		}
		word.Reset()
	}
	for _, r := range lower {
		if len(out) >= maxLexical {
			break
		}
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || r == '\''):
			word.WriteRune(r)
			prev = 0
			continue
		case unicode.Is(unicode.Han, r):
			flush()
			if prev != 0 {
				out = append(out, "z:"+string(prev)+string(r))
			}
			prev = r
			continue
		}
		flush()
		prev = 0
	}
	flush()
	return out
}

// stem folds an English word's plural and common endings, so "files"
// and "file", "processes" and "process" weigh the same.
func stem(w string) string {
	w = strings.TrimSuffix(strings.TrimPrefix(w, "'"), "'s")
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// dedupe removes adjacent duplicates from sorted fs.
func dedupe(fs []string) []string {
	out := fs[:0]
	for i, f := range fs {
		if i == 0 || f != fs[i-1] {
			out = append(out, f)
		}
	}
	return out
}

// tierWord is the first word of text that names a command of the tiers
// (whitelist or ask tier), and whether that name is also an English
// word ("free", "top"), which makes it weaker evidence.
func (c *commands) tierWord(text string) (name string, prose bool) {
	for _, w := range reASCIIWord.FindAllString(text, maxLexical) {
		w = strings.ToLower(strings.TrimRight(w, ".:"))
		if c.allowed(w) || c.askable(w) {
			return w, proseNames[w] || ambiguousPrograms[w]
		}
	}
	return "", false
}

// reQueryNoise is what an uploads search says besides what to look for:
// the reference, kinds of files, search verbs and fillers.
var reQueryNoise = compile(`(?i)我|的|里|中|在|从|一下|帮|找|搜索?|查找?|检索|文件|日志|配置|上传|传|过|了|那些|那个|个|\b(find|search|look|for|in|the|my|files?|logs?|configs?|uploads?|uploaded|i|that|which|have|i've|through|across)\b|[\s\p{P}]`)

// uploadQuery is what a search of the uploads looks for, "" when the
// message names only the uploads.
func uploadQuery(text string) string {
	return strings.TrimSpace(reQueryNoise.ReplaceAllString(strings.ToLower(text), ""))
}

// running reports whether prose asks whether something runs; "running
// out of disk" does not.
func running(prose string) bool {
	return reRunning.MatchString(reRunOut.ReplaceAllString(prose, " "))
}
