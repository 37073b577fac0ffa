package builtin

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"opsassist/internal/bytesize"
	"opsassist/tools"
	"opsassist/tools/askuser"
	"opsassist/tools/command"
)

// answer composes the reply from the intent and this turn's tool results,
// in the user's language; a refusal lists the whitelist of cmds and the
// commands it runs once the user confirms them (the ask tier).
func answer(zh bool, in Intent, results []result, cmds command.Tiers) string {
	t := lang(zh)
	switch in.Kind {
	case "refuse":
		s := t("抱歉，我不能执行这个请求：", "Sorry, I can't do that: ") + in.reason.text(zh) + t(
			"。\n出于安全考虑，我只运行只读的白名单命令（"+cmds.String()+"），不会修改或删除任何东西。",
			".\nFor safety I only run read-only whitelisted commands ("+cmds.String()+") and never change or delete anything.")
		if ask := cmds.Ask(); len(ask) > 0 {
			s += t("以下运维命令会先请你确认再执行："+strings.Join(ask, "、")+"。",
				" These operator commands run once you confirm them: "+strings.Join(ask, ", ")+".")
		}
		return s
	case "smalltalk":
		return t("你好！我是 opsassist 运维助手。", "Hello! I'm opsassist, your ops assistant. ") + capabilities(zh)
	case "assistant":
		return assistantAnswer(zh, in.ask)
	case "no_upload":
		// The planner does not know the client: the hint names each way.
		return t("这个会话里还没有上传的文件或日志，我没有可以查找错误的内容。先上传文件（REPL 中用 /upload 路径，命令行用 opsassist upload 文件，或 cat app.log | opsassist ask \"有什么错误？\"）。",
			"There is no uploaded file or log in this conversation, so there is nothing to look for errors in. Upload a file first (in the REPL: /upload PATH; on the command line: opsassist upload FILE, or cat app.log | opsassist ask \"any errors?\").")
	case "help", "unknown":
		if len(results) == 0 {
			return help(zh, in.Kind == "unknown")
		}
	}
	if len(results) == 0 {
		return help(zh, true)
	}
	if in.Kind == "download" {
		// The download is the answer; the lookups before it were means.
		found := false
		for _, r := range results {
			if r.tool == "file_download" {
				results, found = []result{r}, true
				break
			}
		}
		if !found && looksLikeFileName(in.Query) {
			return fmt.Sprintf(t("没有找到名为 %s 的文件（已查找系统文档和本会话上传的文件）。可以先上传它，或说说文件的内容，我来帮你找。",
				"No file named %s was found (among the system documents and this conversation's uploads). Upload it first, or describe its content and I will look for it."), in.Query)
		}
	}
	if s, ok := compareAnswer(zh, in, results); ok {
		return s
	}
	var parts []string
	for _, r := range results {
		parts = append(parts, describe(zh, in, r))
	}
	return strings.Join(parts, "\n\n")
}

func lang(zh bool) func(string, string) string {
	return func(z, e string) string {
		if zh {
			return z
		}
		return e
	}
}

// capabilities is the one-line list of what the offline planner does.
func capabilities(zh bool) string {
	return lang(zh)("可以问我系统资源、执行只读命令、查找或下载文件、阅读你上传的文件。",
		"Ask me about system resources, run read-only commands, find or download files, or read files you upload.")
}

func help(zh, unknown bool) string {
	t := lang(zh)
	head := ""
	if unknown {
		head = t("我没能理解这个请求（离线模式只识别下面这些用法）。\n", "I didn't understand that (offline mode recognises the requests below).\n")
	}
	return head + t(
		"我可以：\n• 查看系统资源：\"CPU使用率是多少？\"、\"系统资源使用情况如何？\"\n• 执行只读命令：\"执行 ls -la\"、\"查看进程\"\n• 阅读上传的文件：\"这个文件里数据库端口是多少？\"、\"查看我上传的所有文件\"\n• 查找与下载：\"如何配置数据库？\"、\"下载config.yaml\"",
		"I can:\n• check resources: \"What's the CPU usage?\", \"How is the system doing?\"\n• run read-only commands: \"run ls -la\", \"show processes\"\n• read your uploads: \"What port is the database on in this file?\", \"list my uploaded files\"\n• search and download: \"How do I configure the database?\", \"download config.yaml\"")
}

// failed says why a call did not succeed in the user's language, from
// its failure code (tools.FailureText); the raw error, in English for the
// model, stays in the log and the audit record. A result without a
// known code (recorded before codes existed) still shows its error, in
// an English answer or when the error is written in Chinese.
func failed(zh bool, r result) string {
	return tools.FailureText(zh, r.code, r.tool, r.Error, r.args)
}

// describe turns one tool result into text.
func describe(zh bool, in Intent, r result) string {
	if r.tool == askuser.Name {
		return describeQuestion(zh, r)
	}
	if !r.Success && len(r.Output) == 0 {
		return failed(zh, r)
	}
	switch r.tool {
	case "sys_monitor":
		return describeMonitor(zh, r.Output)
	case "command_executor":
		if s, ok := processAnswer(zh, in, r); ok {
			return s
		}
		return describeCommand(zh, r)
	case "semantic_search":
		return describeSearch(zh, r.Output)
	case "file_download":
		return describeDownload(zh, r.Output)
	case "file_upload":
		return describeUpload(zh, in, r)
	}
	return string(r.Output)
}

func describeMonitor(zh bool, raw json.RawMessage) string {
	t := lang(zh)
	var m struct {
		CPU *struct {
			Usage   float64            `json:"usage_percent"`
			Cores   int                `json:"cores"`
			Logical int                `json:"logical_cores"`
			Freq    string             `json:"frequency"`
			LoadAvg map[string]float64 `json:"load_avg"`
		} `json:"cpu"`
		Memory *struct {
			Total, Used, Available string
			TotalBytes             uint64  `json:"total_bytes"`
			UsedBytes              uint64  `json:"used_bytes"`
			AvailableBytes         uint64  `json:"available_bytes"`
			Usage                  float64 `json:"usage_percent"`
		} `json:"memory"`
		Disk   *diskUsage `json:"disk"`
		Uptime int64      `json:"uptime_s"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return string(raw)
	}
	var lines []string
	if c := m.CPU; c != nil {
		line := fmt.Sprintf(t("CPU 使用率：%.1f%%（%d 核 / %d 线程", "CPU usage: %.1f%% (%d cores / %d threads"), c.Usage, c.Cores, c.Logical)
		if l, ok := c.LoadAvg["1m"]; ok {
			line += fmt.Sprintf(t("，负载 %.2f / %.2f / %.2f", ", load %.2f / %.2f / %.2f"), l, c.LoadAvg["5m"], c.LoadAvg["15m"])
		}
		lines = append(lines, line+t("）", ")"))
	}
	if mm := m.Memory; mm != nil {
		used, total, avail := mm.Used, mm.Total, mm.Available
		if mm.TotalBytes > 0 {
			// The sizes as every other answer says them (bytesize).
			used, total, avail = bytesize.Format(int64(mm.UsedBytes)), bytesize.Format(int64(mm.TotalBytes)), bytesize.Format(int64(mm.AvailableBytes))
		}
		lines = append(lines, fmt.Sprintf(t("内存使用率：%.1f%%（已用 %s / 共 %s，可用 %s）", "Memory usage: %.1f%% (%s used of %s, %s available)"), mm.Usage, used, total, avail))
	}
	if d := m.Disk; d != nil {
		lines = append(lines, diskLine(zh, *d))
	}
	if m.Uptime > 0 {
		lines = append(lines, fmt.Sprintf(t("已运行：%.1f 小时", "Uptime: %.1f hours"), float64(m.Uptime)/3600))
	}
	return strings.Join(lines, "\n")
}

func describeCommand(zh bool, r result) string {
	t := lang(zh)
	var c struct {
		Command  string `json:"command"`
		ExitCode int    `json:"exit_code"`
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
	}
	if err := json.Unmarshal(r.Output, &c); err != nil {
		if out, ok := truncatedStdout(r.Output); ok {
			return fmt.Sprintf(t("命令输出过长，以下为开头部分：\n%s\n（完整输出已保存在会话中）", "The output is long; here is its beginning:\n%s\n(the full output is kept in the session)"), codeBlock(out))
		}
		if !r.Success && r.code != "" {
			return failed(zh, r)
		}
		return fmt.Sprintf(t("命令执行失败：%s", "The command failed: %s"), firstNonEmpty(r.Error, string(r.Output)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, t("命令 %s 的输出：\n", "Output of %s:\n"), codeSpan(c.Command))
	out := strings.TrimRight(c.Stdout, "\n")
	if out == "" {
		out = t("（无输出）", "(no output)")
	}
	b.WriteString(codeBlock(out))
	if c.ExitCode != 0 || !r.Success {
		fmt.Fprintf(&b, t("\n退出码 %d：%s", "\nExit code %d: %s"), c.ExitCode, strings.TrimSpace(firstNonEmpty(c.Stderr, r.Error)))
	}
	return b.String()
}

// truncatedStdout recovers the beginning of stdout from a command result
// the registry cut for the model: a JSON string holding the head of the
// result's JSON, a truncation note and its tail.
func truncatedStdout(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	_, rest, ok := strings.Cut(s, `"stdout":"`)
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n…[truncated "); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.Index(rest, `","stderr"`); i >= 0 {
		rest = rest[:i]
	}
	// Drop a dangling escape the cut may have left, then unescape.
	for k := 0; k < 6 && len(rest) > 0; k++ {
		var out string
		if json.Unmarshal([]byte(`"`+rest+`"`), &out) == nil {
			return strings.TrimRight(out, "\n"), true
		}
		rest = rest[:len(rest)-1]
	}
	return "", false
}

// searchHit is one semantic_search result as describeSearch reads it.
type searchHit struct {
	Filename   string  `json:"filename"`
	Filepath   string  `json:"filepath"`
	Similarity float64 `json:"similarity"`
	Chunk      string  `json:"chunk"`
	Position   string  `json:"position"`
	// Strong marks a hit presented as relevant (tools/search.Result).
	Strong bool `json:"strong"`
}

func describeSearch(zh bool, raw json.RawMessage) string {
	t := lang(zh)
	var s struct {
		Total   int         `json:"total"`
		Status  string      `json:"status"`
		Results []searchHit `json:"results"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw)
	}
	if s.Status == "loading" { // tools/search.StatusLoading
		return t("搜索索引正在加载（服务刚启动），暂时无法检索，请稍后再试。", "The search index is still loading after a restart; nothing can be searched yet. Please try again shortly.")
	}
	if s.Status == "no_relevant" { // tools/search.StatusNoRelevant
		return t("没有找到足够相关的内容。可以换个说法，用文档里会出现的关键词或文件名再搜索，或说明要搜系统文档还是上传的文件。",
			"Nothing relevant enough was found. Try other words, keywords likely to appear in the document or a file name, or say whether to search the system documents or your uploads.")
	}
	if len(s.Results) == 0 {
		return t("没有找到相关内容。", "Nothing relevant was found.")
	}
	// Shown in the order of the score shown; the snippets are quotations
	// (quoteSnippet), so none can break the list.
	slices.SortStableFunc(s.Results, func(a, b searchHit) int { return cmp.Compare(b.Similarity, a.Similarity) })
	// A hit whose snippet quotes to nothing (a separator row, a fence)
	// is left out; if every hit is, they are listed without snippets.
	type shown struct {
		hit   searchHit
		quote string
	}
	var list []shown
	for _, h := range s.Results {
		if q := quoteSnippet(h.Chunk); !quotesNothing(q) {
			list = append(list, shown{h, q})
		}
	}
	bare := len(list) == 0
	if bare {
		for _, h := range s.Results {
			list = append(list, shown{hit: h})
		}
	}
	// Weak hits are not presented as found: with no strong one the
	// answer says nothing clearly relevant came up and lists them as
	// possibly related.
	strong := slices.ContainsFunc(list, func(h shown) bool { return h.hit.Strong })
	var b strings.Builder
	passages := fmt.Sprintf("%d passages", len(list))
	if len(list) == 1 {
		passages = "1 passage"
	}
	if strong {
		b.WriteString(t(fmt.Sprintf("找到 %d 条相关内容：", len(list)), "Found "+strings.Replace(passages, " ", " relevant ", 1)+":"))
	} else {
		b.WriteString(t(fmt.Sprintf("没有找到明确相关的内容；以下 %d 条可能有关（相似度较低，仅供参考）：", len(list)), "Nothing clearly relevant was found; "+passages+" that may be related (low similarity):"))
	}
	for i, h := range list {
		fmt.Fprintf(&b, t("\n%d. %s（%s，相似度 %.2f）", "\n%d. %s (%s, similarity %.2f)"), i+1, h.hit.Filename, h.hit.Position, h.hit.Similarity)
		if !bare {
			b.WriteString("\n   " + h.quote)
		}
	}
	return b.String()
}

func describeDownload(zh bool, raw json.RawMessage) string {
	t := lang(zh)
	var d struct {
		Mode     string `json:"transport_mode"`
		Token    string `json:"download_token"`
		URL      string `json:"download_url"`
		Filename string `json:"filename"`
		Size     int64  `json:"file_size"`
		SHA256   string `json:"sha256"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return string(raw)
	}
	// The token and the link are not repeated here: the download offer
	// event that comes with this result carries them, and every client
	// shows it (the CLI's "可下载：…" line, the web's card) — the answer
	// printed the offer a second time.
	return fmt.Sprintf(t("已准备下载 %s（%s，sha256 %.12s…），传输方式 %s，10 分钟内有效。", "%s is ready to download (%s, sha256 %.12s…) over %s, for 10 minutes."), d.Filename, bytesize.Format(d.Size), d.SHA256, strings.ToUpper(d.Mode))
}

var reWord = compile(`[A-Za-z_][A-Za-z0-9_]{2,}`)

// glossary maps Chinese words in questions to the words config files
// use. It is the one list: the line-based reading (questionGroups) and
// the key lookup in parsed files (keyTerms) both read it, and its words
// are the key vocabulary a question in English is read for.
var glossary = map[string][]string{
	"端口": {"port"}, "数据库": {"database", "db", "mysql", "postgres", "postgresql", "pg", "datasource"}, "主机": {"host"}, "地址": {"host", "addr", "address", "url", "endpoint"},
	"用户": {"user", "username"}, "用户名": {"user", "username"}, "密码": {"password", "passwd", "pwd"}, "超时": {"timeout"}, "日志": {"log"}, "错误": {"error", "err", "fail"},
	"警告": {"warn"}, "版本": {"version"}, "路径": {"path", "dir"}, "内存": {"memory", "mem"}, "线程": {"thread", "worker"},
	"连接": {"conn", "conns", "connection", "connections"}, "连接池": {"pool"}, "缓存": {"cache", "redis"}, "级别": {"level"},
	"监听": {"listen"}, "令牌": {"token"}, "密钥": {"secret", "key"}, "重试": {"retry", "retries"}, "主库": {"primary", "master"},
	"从库": {"replica", "slave"}, "副本": {"replica", "replicas"}, "目录": {"dir", "path"}, "驱动": {"driver"}, "时区": {"timezone"},
	"库名": {"name"}, "名称": {"name"}, "证书": {"cert", "tls"}, "消息队列": {"mq", "queue", "kafka"},
}

func describeUpload(zh bool, in Intent, r result) string {
	t := lang(zh)
	var read struct {
		Filename  string  `json:"filename"`
		Content   *string `json:"content"`
		Truncated bool    `json:"truncated"`
	}
	if json.Unmarshal(r.Output, &read) == nil && read.Content != nil {
		return describeRead(zh, in, read.Filename, *read.Content, read.Truncated)
	}
	var list struct {
		Total int `json:"total"`
		Files []struct {
			Filename   string `json:"filename"`
			FileID     string `json:"file_id"`
			UploadedAt string `json:"uploaded_at"`
			Size       int64  `json:"size"`
		} `json:"files"`
	}
	if err := json.Unmarshal(r.Output, &list); err != nil {
		return string(r.Output)
	}
	if list.Total == 0 {
		return t("本会话还没有符合条件的上传文件。", "No uploaded files in this conversation match.")
	}
	var b strings.Builder
	fmt.Fprintf(&b, t("您已上传 %d 个文件：", "You have uploaded %d file(s):"), list.Total)
	for i, f := range list.Files {
		fmt.Fprintf(&b, t("\n%d. %s（%s，%s，file_id %s）", "\n%d. %s (%s, %s, file_id %s)"), i+1, f.Filename, f.UploadedAt, bytesize.Format(f.Size), f.FileID)
	}
	return b.String()
}

// describeRead answers a question about a file from its content: an
// errors question with the file's errors grouped and counted
// (describeErrors); a question for its last or first lines with those
// lines (linesAnswer); a question about a setting of a configuration
// file that parses with the setting's path and value (keyAnswer); else
// the lines of the section the question names that mention its key
// words ("数据库端口": the port under database:, scopedLines), else every
// line that mentions one of them, or else the beginning. The file's own
// name, and any configuration file's, in the question names no setting
// (withoutFileNames): "the database port in app.toml" asks for no "app".
func describeRead(zh bool, in Intent, name, content string, truncated bool) string {
	t := lang(zh)
	if reErrorQuestion.MatchString(inputOf(in)) && !reSystemLog.MatchString(inputOf(in)) {
		return describeErrors(zh, name, content, truncated)
	}
	q := withoutFileNames(inputOf(in), name)
	if tail, n, ok := linesWanted(q); ok {
		return linesAnswer(zh, name, content, truncated, tail, n)
	}
	if keyFile(name) {
		if s, ok := keyAnswer(zh, q, name, content); ok {
			return s
		}
	}
	groups, label := questionGroups(q, zh)
	hits := scopedLines(content, groups, 20)
	if len(hits) == 0 && len(groups) > 1 && isConfigName(name) && isPortGroup(groups[len(groups)-1]) {
		// "http 的端口": the port of the address the key http holds.
		if port, at, ok := addressPort(content, groups[len(groups)-2]); ok {
			return portAnswer(zh, name, groups[len(groups)-2][0], port, shownAddrLine(at), at.n)
		}
	}
	if len(hits) == 0 && len(groups) > 1 && isConfigName(name) {
		// A question about a key ("数据库端口") that no key answers: say
		// so, and name the keys of its kind that exist; a comment or a
		// line about something else is no answer.
		return noSuchKey(zh, name, label, keyLines(content, groups[len(groups)-1], 10))
	}
	if len(hits) == 0 && len(groups) > 0 {
		for i, line := range strings.Split(content, "\n") {
			if isComment(line) {
				continue
			}
			l := strings.ToLower(line)
			if matches(groups, l) {
				hits = append(hits, fmt.Sprintf("%d: %s", i+1, strings.TrimSpace(line)))
			}
			if len(hits) == 20 {
				break
			}
		}
	}
	if len(hits) > 0 {
		// A secret on a quoted line is hidden, as a setting's answer
		// hides it.
		return fmt.Sprintf(t("在 %s 中找到相关内容：\n%s", "Relevant lines in %s:\n%s"), name, quotedBlock(hits))
	}
	excerpt := []rune(content)
	if len(excerpt) > 1500 {
		excerpt = excerpt[:1500]
		truncated = true
	}
	// The beginning of the file, its secrets hidden too.
	s := fmt.Sprintf(t("%s 的内容：\n%s", "Content of %s:\n%s"), name, quotedBlock(strings.Split(strings.TrimRight(string(excerpt), "\n"), "\n")))
	if truncated {
		s += t("\n（内容较长，只显示开头部分）", "\n(long file: only the beginning is shown)")
	}
	return s
}

// matches reports whether line mentions a word of the groups (of three
// letters or more, not a stop word).
func matches(groups []wordGroup, line string) bool {
	for _, g := range groups {
		for _, k := range g {
			if len(k) > 2 && strings.Contains(line, k) && !stop[k] {
				return true
			}
		}
	}
	return false
}

// stop lists question words that say nothing about the file.
var stop = map[string]bool{"the": true, "what": true, "this": true, "file": true, "that": true, "which": true, "how": true, "many": true, "are": true, "is": true, "in": true, "of": true, "and": true, "does": true, "show": true, "tell": true, "about": true}

func inputOf(in Intent) string { return in.input }

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}
