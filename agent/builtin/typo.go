package builtin

import (
	"slices"
	"strings"
	"unicode"
)

// typoVocabulary are the English words the planner's features key on —
// resource words, document and procedure words, upload and download
// words, viewing verbs — long enough to be mistyped recognisably. The
// configured tiers add their command names (commands.vocabulary).
var typoVocabulary = []string{
	"memory", "process", "processes", "directory", "download", "upload", "uploaded", "uploads",
	"storage", "running", "document", "documentation", "documents", "directories",
	"restart", "reboot", "delete", "shutdown", "disk", "space", "usage", "check",
	"runbook", "procedure", "playbook", "search", "config", "configuration", "uptime",
	"logs", "show", "files", "status", "utilization", "utilisation", "processor", "container", "service",
	"system",
}

// realWords are English words near a vocabulary word, which must not be
// "corrected": "desk" is not a typo of "disk", nor "spice" of "space".
var realWords = words(`processed proceeds professor progress unloaded directors
	desk dusk disc dish risk dist dick spade spare spice spacy pace usages usage sausage
	chick cheek checks chuck shown shoe snow slow shot lows loss logo lots legs lags
	flies fills films filed tiles miles piles statue stats stature static states
	restate restore restored restarts deleted deletes search searched searcher researcher
	configs confirm confine uplifted uploader downloader reload preload payload
	memo memos memoir memories remote removal uptake uptown runabout
	ruining cunning gunning sunning dunning punning rebook stratus confit unload unloads
	director profess professes prowess progresses contig statfs stowage`)

// homophones are the Chinese vocabulary's pinyin-IME and voice-input
// typos, the one list of them (the safety stage's destructive verbs
// included): a word spelt with a character of the same sound, in any tone,
// as speech recognition hears it (磁盘 → 瓷盘 or 刺盘, 内存 → 内纯,
// 关机 → 关基, 占用率 → 占用律). A pair that is itself an everyday word
// (进城, 上船, 挂在) is not listed; 下在 is one, so only its forms that
// cannot be "below, at" are (下在一下, 帮我下在).
var homophones = strings.NewReplacer(
	"瓷盘", "磁盘", "词盘", "磁盘", "此盘", "磁盘", "慈盘", "磁盘", "磁判", "磁盘", "磁盼", "磁盘",
	"刺盘", "磁盘", "次盘", "磁盘", "辞盘", "磁盘", "雌盘", "磁盘",
	"内醇", "内存", "内淳", "内存",
	"尽程", "进程", "劲程", "进程",
	"关基", "关机", "关鸡", "关机", "关积", "关机", "关击", "关机",
	"重起", "重启", "从启", "重启",
	"下在一下", "下载一下", "下在下来", "下载下来", "帮我下在", "帮我下载", "下在到本地", "下载到本地",
	"占用律", "占用率", "占用绿", "占用率", "占用滤", "占用率", "使用律", "使用率", "使用绿", "使用率", "利用律", "利用率",
	"站用率", "占用率",
	"监厅", "监听", "坚听", "监听",
	"防火强", "防火墙",
	"配至", "配置",
	"内纯", "内存", "内村", "内存", "内寸", "内存", "内蠢", "内存",
	"应盘", "硬盘", "映盘", "硬盘",
	"近程", "进程", "今程", "进程", "金程", "进程", "进成", "进程", "进称", "进程",
	"日至", "日志", "日制", "日志", "日置", "日志", "日质", "日志",
	"文当", "文档", "文挡", "文档", "文党", "文档",
	"上穿", "上传", "上串", "上传",
	"下再", "下载", "下栽", "下载",
	"负再", "负载", "负在", "负载",
	"荣器", "容器", "溶器", "容器", "熔器", "容器",
	"短口", "端口", "端扣", "端口",
	"目路", "目录", "木录", "目录",
	"流成", "流程",
	"手侧", "手册", "手测", "手册",
	"壮态", "状态", "状泰", "状态",
	"服物器", "服务器", "服误器", "服务器",
	// The destructive verbs' slips, read by the safety stage (inert.go
	// reads the repaired text).
	"删调", "删掉", "删楚", "删除", "杀调", "杀掉", "卸在", "卸载", "卸栽", "卸载", "卸再", "卸载",
	"格是化", "格式化", "格式话", "格式化", "清里", "清理", "安状", "安装",
)

// reTypoWord is an English word that may be a typo: four letters or more.
var reTypoWord = compile(`[A-Za-z]{4,}`)

// fixTypos repairs typos of the default planner's vocabulary in s.
func fixTypos(s string) string { return defaultCommands.fixTypos(s) }

// fixTypos repairs typos of the planner's vocabulary in s: Chinese
// homophones, and each English word within a small edit distance of a
// vocabulary word (vocabulary). Parts of paths, file names and
// identifiers are left alone. The cost is linear in len(s): each word is
// compared with a vocabulary of fixed size.
func (c *commands) fixTypos(s string) string {
	s = c.fixCommandHead(homophones.Replace(readVariants(s)))
	s = reCupUsage.ReplaceAllString(s, "${1}cpu${2}")
	return replaceWords(s, reTypoWord, c.correction)
}

// replaceWords is s with each match of re that is not part of a path or
// name (partOfName) and that repl knows replaced by repl's word. Its
// cost is linear in len(s) plus repl's.
func replaceWords(s string, re *rx, repl func(string) (string, bool)) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if partOfName(s, loc[0], loc[1]) {
			continue
		}
		if v, ok := repl(s[loc[0]:loc[1]]); ok {
			b.WriteString(s[last:loc[0]])
			b.WriteString(v)
			last = loc[1]
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// reCupUsage is "cup" (or "cpi", "cpy") beside a word of usage or load:
// a typo of cpu, which a cup of coffee is not ("cup 占用多少", "how
// much cup is being used", "cup usage").
var reCupUsage = compile(`(?i)(^|[^\w./-])(?:cup|cpi|cpy)(\s*(?:占用|使用|用了|利用|负载|多少|高|满|%|\busage\b|\bload\b|\butili[sz]ation\b|\b(?:is|are)? ?(?:being )?used\b|\bat \d+)|\s+(?:usage|load|utili[sz]ation|percent))`)

// partOfName reports whether s[i:j] touches a path, file name or
// identifier character.
func partOfName(s string, i, j int) bool {
	name := func(c byte) bool {
		return c == '/' || c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9'
	}
	return i > 0 && name(s[i-1]) || j < len(s) && name(s[j]) && !(s[j] == '.' && (j+1 == len(s) || s[j+1] == ' '))
}

// correction returns the vocabulary word w is a typo of. How far a typo
// may be depends on the word's length, so short words are not bent into
// others: four or five letters, two letters swapped ("dsik" → "disk");
// six to nine, one edit ("runing"); ten or more, two ("documnetaion").
// The first letter must be right (or swapped with the second): people
// rarely mistype it, and ordinary words one edit from a vocabulary word
// mostly differ there ("locker", "docker"). An identifier — a capital
// after the first letter, "isShutdown", "ESHUTDOWN" — is left alone.
func (c *commands) correction(w string) (string, bool) {
	if len(w) > 24 || strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 {
		return "", false
	}
	lw := strings.ToLower(w)
	if realWords[lw] {
		return "", false
	}
	vocab := c.vocabulary()
	for _, v := range vocab {
		if lw == v || len(lw) > len(v) && strings.HasPrefix(lw, v) && inflection[lw[len(v):]] {
			return "", false // the word, or an inflection: "downloads"
		}
	}
	for _, v := range vocab {
		n := min(len(lw), len(v))
		switch {
		case n < 4 || abs(len(lw)-len(v)) > 2:
		case lw[0] != v[0] && !(lw[0] == v[1] && lw[1] == v[0]):
		case n <= 5:
			if len(lw) == len(v) && transposed(lw, v) {
				return v, true
			}
			if len(lw) == 5 && len(v) >= 6 && deletion(v, lw) {
				return v, true // a letter left out: "sytem"
			}
		case n <= 9:
			if oneEdit(lw, v) || doubledSlip(lw, v) {
				return v, true
			}
		default:
			if withinTwo(lw, v) {
				return v, true
			}
		}
	}
	return "", false
}

// inflection are the endings that make a vocabulary word another form
// of it ("downloads", "uploaded"), not another word ("systemclt" is a
// typo of systemctl, not a form of system).
var inflection = words(`s es d ed ing er ers ly ed's`)

// vocabulary is typoVocabulary and the tiers' command names that are not
// English words.
func (c *commands) vocabulary() []string {
	c.vocabOnce.Do(func() {
		c.vocab = append([]string(nil), typoVocabulary...)
		for _, n := range append(c.tiers.Names(), askNames(c.tiers.Ask())...) {
			if len(n) >= 4 && !proseNames[n] && !ambiguousPrograms[n] && !slices.Contains(c.vocab, n) {
				c.vocab = append(c.vocab, n)
			}
		}
	})
	return c.vocab
}

// askNames are the command names of ask-tier entries.
func askNames(entries []string) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		name, _, _ := strings.Cut(e, " ")
		out = append(out, name)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// transposed reports whether a and b (ASCII, of one length) differ by
// exactly one swap of adjacent letters.
func transposed(a, b string) bool {
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// withinTwo reports whether a and b (ASCII) are at most two edits apart
// (optimal string alignment: insertion, deletion, substitution, swap of
// adjacent letters), a and b differing.
func withinTwo(a, b string) bool {
	if a == b || abs(len(a)-len(b)) > 2 {
		return false
	}
	var d [3][26]int // rows i-2, i-1, i; words are at most 24 letters
	if len(a) > 24 || len(b) > 24 {
		return false
	}
	for j := 0; j <= len(b); j++ {
		d[2][j] = j
	}
	for i := 1; i <= len(a); i++ {
		d[0], d[1] = d[1], d[2]
		d[2][0] = i
		best := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(d[1][j]+1, d[2][j-1]+1, d[1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, d[0][j-2]+1)
			}
			d[2][j] = v
			best = min(best, v)
		}
		if best > 2 {
			return false
		}
	}
	return d[2][len(b)] <= 2
}

// oneEdit reports whether a and b (ASCII) differ by exactly one edit,
// counting an adjacent transposition as one.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	switch {
	case la == lb:
		i := 0
		for i < la && a[i] == b[i] {
			i++
		}
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la == lb+1:
		return deletion(a, b)
	case lb == la+1:
		return deletion(b, a)
	}
	return false
}

// doubledSlip reports whether a is b, or one edit from it, once one doubled
// letter of a is typed once ("procceses" → "proceses" → "processes"):
// a key held or pressed twice is the commonest second slip.
func doubledSlip(a, b string) bool {
	for i := 1; i < len(a); i++ {
		if once := a[:i] + a[i+1:]; a[i] == a[i-1] && (once == b || oneEdit(once, b)) {
			return true
		}
	}
	return false
}

// deletion reports whether removing one byte from long gives short.
func deletion(long, short string) bool {
	i := 0
	for i < len(short) && long[i] == short[i] {
		i++
	}
	return long[i+1:] == short[i:]
}
