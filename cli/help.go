package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// flagDoc documents one flag of a command: the completion scripts and the
// help text both read it.
type flagDoc struct {
	name string // without dashes
	arg  string // the value's placeholder; "" for a boolean flag
	text string
	zh   string // text in Chinese, for the help in a Chinese locale
}

// versionFlag documents --version, which only the global help lists.
func versionFlag() flagDoc {
	return flagDoc{"version", "", "print the version and exit", "打印版本后退出"}
}

// commandDoc documents one subcommand. commands is the one table the
// global help, per-command help and shell completion are built from.
type commandDoc struct {
	name      string
	summary   string // one line, for the global help and completion
	summaryZh string // summary in Chinese, for the help in a Chinese locale
	usage     string // the usage lines
	about     string // what it does, a paragraph or more
	aboutZh   string // about in Chinese (helpzh.go), without a usage paragraph
	flags     []flagDoc
	global    bool // takes the connection flags (--server, --token, …)
	examples  []string
	// examplesZh, if set, are examples with their comments in Chinese.
	examplesZh []string
}

// globalFlags are the connection flags every networked command takes,
// before or after the command.
func globalFlags() []flagDoc {
	return []flagDoc{
		{"server", "ADDR", "server address (default 127.0.0.1:9999, env OPSASSIST_SERVER)", "服务器地址（默认 127.0.0.1:9999，环境变量 OPSASSIST_SERVER）"},
		{"token", "T", "access token (env OPSASSIST_TOKEN)", "访问令牌（环境变量 OPSASSIST_TOKEN）"},
		{"tls", "", "connect with TLS, verifying the server against the system's CAs (env OPSASSIST_TLS=1)", "用 TLS 连接，按系统的 CA 验证服务器（环境变量 OPSASSIST_TLS=1）"},
		{"tls-ca", "FILE", "with TLS, trust the CA or self-signed certificate in FILE (PEM) instead (env OPSASSIST_TLS_CA)", "使用 TLS 时改为信任 FILE（PEM）中的 CA 或自签名证书（环境变量 OPSASSIST_TLS_CA）"},
		{"insecure", "", "with TLS, skip certificate verification: anyone on the path can read the traffic (env OPSASSIST_INSECURE=1)", "使用 TLS 时跳过证书验证：链路上的任何人都能读取通信（环境变量 OPSASSIST_INSECURE=1）"},
		{"session", "ID", "continue conversation ID, or a unique prefix of it (env OPSASSIST_SESSION); ask and upload fail if it does not exist, the REPL starts a new one", "继续对话 ID 或其唯一前缀（环境变量 OPSASSIST_SESSION）；对话不存在时 ask 和 upload 失败，REPL 开始新对话"},
		{"http", "ADDR", "tools, tool, export, /tools, /tool, /export: use the server's HTTP API at ADDR instead of the NPLT connection (env OPSASSIST_TOOLS_HTTP)", "tools、tool、export、/tools、/tool、/export：改用 ADDR 上服务器的 HTTP 接口，而不是 NPLT 连接（环境变量 OPSASSIST_TOOLS_HTTP）"},
		{"v", "", "ask: show agent status lines and the conversation id on stderr", "ask：在标准错误输出上显示助手状态行和对话 id"},
		{"debug", "", "after each error message, print the raw error in brackets", "在每条错误消息后用方括号打印原始错误"},
		{"render", "MODE", "answers' Markdown (ask, REPL): auto renders it (headings, code blocks, lists, tables) when stdout is a terminal and prints the source unchanged otherwise; always, never force either (env OPSASSIST_RENDER); NO_COLOR=1 keeps the layout, no colour", "回答中的 Markdown（ask、REPL）：auto 在标准输出是终端时渲染（标题、代码块、列表、表格），否则原样输出源文本；always、never 强制其一（环境变量 OPSASSIST_RENDER）；NO_COLOR=1 保留排版、不用颜色"},
	}
}

// commands returns the subcommand table, in the order the help lists it.
func commands() []commandDoc {
	return []commandDoc{
		{name: "ask", aboutZh: askAboutZh, summary: "ask one question, print the answer", summaryZh: "提一个问题，打印回答", global: true,
			usage: "opsassist [flags] ask [--json] [--yes] [--model NAME] [--name NAME] QUESTION…\n" +
				"opsassist [flags] ask [flags] -          (the question from stdin)",
			about: "Asks one question and prints the answer. A tool call that needs your\n" +
				"permission is asked on the terminal, allowed once with --yes, denied when\n" +
				"stdin is not a terminal. With \"-\" as the question, the question is read\n" +
				"from stdin. With a question and piped stdin (not a terminal), the piped\n" +
				"text is first uploaded into the conversation as a file (stdin.txt, or\n" +
				"--name) — up to the server's upload limit, and at most 256 MiB — and the\n" +
				"question is asked about it (a script whose stdin stays open without\n" +
				"input gives ask </dev/null). --model switches the conversation's model\n" +
				"before asking.",
			flags: []flagDoc{
				{"json", "", "print one JSON event per line", "每行输出一个 JSON 事件"},
				{"yes", "", "allow, once, each tool call that asks for permission", "对每个请求许可的工具调用允许一次"},
				{"model", "NAME", "switch the conversation to model NAME first (as /model NAME)", "先把对话切换到模型 NAME（同 /model NAME）"},
				{"name", "NAME", "the file name piped stdin is uploaded as (default stdin.txt)", "管道输入上传时使用的文件名（默认 stdin.txt）"},
				{"new", "", "start a new conversation instead of this terminal's last one", "开始新对话，而不是沿用本终端上一次的对话"},
				{"v", "", "show agent status lines and the conversation id on stderr", "在标准错误输出上显示助手状态行和对话 id"},
			},
			examples: []string{
				`opsassist ask "磁盘还剩多少空间？"`,
				`cat app.log | opsassist ask "有什么错误？"`,
				`echo "what is the load average?" | opsassist ask --model deepseek -`,
			}},
		{name: "upload", aboutZh: uploadAboutZh, summary: "upload files into a conversation, print their ids", summaryZh: "把文件上传到对话，打印它们的 id", global: true,
			usage: "opsassist [flags] upload [--json] FILE…",
			about: "Uploads each FILE, with a progress bar on a terminal, and prints one line\n" +
				"per file: its name, size, file_id, SHA-256 and the conversation.",
			flags: []flagDoc{
				{"json", "", "print one JSON result per file", "每个文件输出一个 JSON 结果"},
				{"new", "", "start a new conversation instead of this terminal's last one", "开始新对话，而不是沿用本终端上一次的对话"},
			},
			examples: []string{"opsassist upload app.log", "opsassist --session 3f2a upload a.conf b.conf"}},
		{name: "download", aboutZh: downloadAboutZh, summary: "download an offered file over RDT (UDP), resuming", summaryZh: "通过 RDT（UDP）下载提供的文件，可续传", global: true,
			usage: "opsassist [flags] download TOKEN -o PATH [--rdt HOST:PORT] [--sha256 HEX]",
			about: "Downloads the file a download offer names by TOKEN into PATH over RDT\n" +
				"(UDP), resuming PATH.part; falls back to NPLT when no RDT packet arrives\n" +
				"in 3 s. Exit status 0 only after the SHA-256 matched.",
			flags: []flagDoc{
				{"o", "PATH", "where to save the file", "文件保存位置"},
				{"rdt", "HOST:PORT", "RDT server (default: the one the server names, else its host, port 9998; env OPSASSIST_RDT)", "RDT 服务器（默认：服务器告知的地址，否则其主机、端口 9998；环境变量 OPSASSIST_RDT）"},
				{"sha256", "HEX", "the expected SHA-256 (default: the offer's)", "期望的 SHA-256（默认：下载链接中给出的）"},
				{"json", "", "print one JSON result", "输出一个 JSON 结果"},
			},
			examples: []string{"opsassist download 7c1e9a -o backup.tar.gz"}},
		{name: "tools", aboutZh: toolsAboutZh, summary: "list the server's tools and MCP servers", summaryZh: "列出服务器的工具和 MCP 服务器", global: true,
			usage: "opsassist [flags] tools [--json]", about: toolsUsage,
			flags:    []flagDoc{{"json", "", "print the catalog JSON as the server sent it", "按服务器发来的原样输出工具目录 JSON"}},
			examples: []string{"opsassist tools", "opsassist --http 127.0.0.1:8080 tools --json"}},
		{name: "export", aboutZh: exportAboutZh, summary: "write a conversation as Markdown or JSON", summaryZh: "把对话导出为 Markdown 或 JSON", global: true,
			usage: "opsassist [flags] export [--format md|json] [-o PATH] ID",
			about: "Writes conversation ID (or a unique prefix) to stdout or PATH: md, a\n" +
				"transcript with tool calls summarised; json, the stored messages. It\n" +
				"asks over the NPLT connection; with --http ADDR (env\n" +
				"OPSASSIST_TOOLS_HTTP) over the server's HTTP API, the same bytes.",
			flags: []flagDoc{
				{"format", "md|json", "md (default) or json", "md（默认）或 json"},
				{"o", "PATH", "write to PATH instead of stdout", "写入 PATH 而不是标准输出"},
			},
			examples: []string{"opsassist export 3f2a > 3f2a.md", "opsassist export --format json -o 3f2a.json 3f2a"}},
		{name: "sessions", aboutZh: sessionsAboutZh, summary: "list your conversations (as /sessions)", summaryZh: "列出你的对话（同 /sessions）", global: true,
			usage: "opsassist [flags] sessions [--all] [--json] [TEXT…]",
			about: "Lists your conversations, newest first, as /sessions does: the newest\n" +
				"20 and how many more there are; --all lists every one. With TEXT, only\n" +
				"those whose title or messages contain it. --json prints every one\n" +
				"(as --all) as one JSON object ({\"sessions\": [...]}), for scripts.",
			flags: []flagDoc{
				{"all", "", "list every conversation, not only the newest 20", "列出全部对话，而不只是最新的 20 个"},
				{"json", "", "print every conversation as JSON (implies --all)", "以 JSON 输出全部对话（含 --all）"},
			},
			examples: []string{"opsassist sessions", "opsassist sessions --all disk"}},
		{name: "tool", aboutZh: toolsAboutZh, summary: "call one tool directly, print its output", summaryZh: "直接调用一个工具，打印其输出", global: true,
			usage: "opsassist [flags] tool NAME ['{JSON arguments}']", about: toolsUsage,
			examples: []string{"opsassist tool sysmon", `opsassist tool command '{"command":"uptime"}'`}},
		{name: "repl", aboutZh: replAboutZh, summary: "interactive chat (the default with no command; also \"chat\")", summaryZh: "交互式对话（不带命令时的默认行为；也可写作 \"chat\"）", global: true,
			usage: "opsassist [flags] [--yes] [repl]",
			about: "Chats interactively: type a question, or a slash command:\n\n" + replHelp,
			flags: []flagDoc{
				{"yes", "", "/clear and /delete do not ask y/N first", "/clear 和 /delete 不先询问 y/N"},
			},
			examples: []string{"opsassist", "opsassist --session 3f2a"}},
		{name: "eval", aboutZh: evalAboutZh, summary: "score the planner's tool choices, locally", summaryZh: "在本地评估规划器的工具选择",
			usage: "opsassist eval --cases FILE [--cases FILE…] [--report] [--llm builtin|NAME] [--config FILE]", about: evalUsage,
			flags: []flagDoc{
				{"cases", "FILE", "the cases, one JSON object per line (repeatable)", "测试用例，每行一个 JSON 对象（可重复）"},
				{"report", "", "add per-tool precision and recall and a confusion matrix", "加上各工具的精确率、召回率和混淆矩阵"},
				{"llm", "NAME", "builtin (default) or a provider", "builtin（默认）或一个模型提供方"},
				{"config", "FILE", "the server's YAML config, for its providers", "服务器的 YAML 配置，用于读取模型提供方"},
			},
			examples: []string{"opsassist eval --cases testdata/evals/tool_selection.jsonl",
				"opsassist eval --report --cases testdata/evals/tool_selection.jsonl --cases testdata/evals/validation.jsonl"}},
		{name: "eval-retrieval", aboutZh: evalRetrievalAboutZh, summary: "score search over a corpus, locally", summaryZh: "在本地评估对一个语料库的搜索",
			usage: "opsassist eval-retrieval --corpus DIR --cases FILE [--config FILE] [--mode hybrid|vector|keyword] [--min-score X] [--part all|train|heldout] [--choose-floor]", about: evalRetrievalUsage,
			flags: []flagDoc{
				{"corpus", "DIR", "the files to index", "要建立索引的文件"},
				{"cases", "FILE", "the queries, one JSON object per line", "查询，每行一个 JSON 对象"},
				{"config", "FILE", "the server's YAML config, for its embedder", "服务器的 YAML 配置，用于读取嵌入模型"},
				{"mode", "MODE", "hybrid (default), vector or keyword", "hybrid（默认）、vector 或 keyword"},
				{"min-score", "X", "relevance floor, 0–1 (default: the configured search.min_score; 0 keeps every hit)", "相关度下限，0–1（默认：配置的 search.min_score；0 保留所有结果）"},
				{"part", "PART", "which cases: all, train or heldout", "使用哪些用例：all、train 或 heldout"},
				{"choose-floor", "", "print the floor the relevance rule chooses on these cases instead", "改为输出相关度规则在这些用例上选出的下限"},
			},
			examples: []string{"opsassist eval-retrieval --corpus docs --cases cases.jsonl"}},
		{name: "audit", aboutZh: auditAboutZh, summary: "check the server's audit log (audit verify)", summaryZh: "检查服务器的审计日志（audit verify）",
			usage: "opsassist audit verify [--data DIR]", about: auditUsage,
			flags:    []flagDoc{{"data", "DIR", "the server's data directory (default ./data, env OPSASSIST_DATA)", "服务器的数据目录（默认 ./data，环境变量 OPSASSIST_DATA）"}},
			examples: []string{"opsassist audit verify", "opsassist audit verify --data /var/lib/opsassist"}},
		{name: "completion", aboutZh: completionAboutZh, summary: "print a shell completion script (bash, zsh or fish)", summaryZh: "打印 shell 补全脚本（bash、zsh 或 fish）",
			usage: "opsassist completion bash|zsh|fish",
			about: "Prints a script that completes opsassist's commands, flags and flag values:\n" +
				"conversation ids after --session and export, model names after --model\n" +
				"(asked of the server, for at most 1.5 s; nothing when it is down), md json\n" +
				"after --format, auto always never after --render; file names only where a\n" +
				"file belongs (upload, -o, --config…).",
			examples: []string{
				`source <(opsassist completion bash)        # in ~/.bashrc`,
				`opsassist completion zsh > "${fpath[1]}/_opsassist"`,
				`opsassist completion fish > ~/.config/fish/completions/opsassist.fish`,
			},
			examplesZh: []string{
				`source <(opsassist completion bash)        # 写入 ~/.bashrc`,
				`opsassist completion zsh > "${fpath[1]}/_opsassist"`,
				`opsassist completion fish > ~/.config/fish/completions/opsassist.fish`,
			}},
		{name: "version", aboutZh: versionAboutZh, summary: "print the version, commit and Go version (also --version)", summaryZh: "打印版本、提交和 Go 版本（也可用 --version）",
			usage: "opsassist version", about: "Prints the version, the commit it was built from and the Go version.",
			examples: []string{"opsassist --version"}},
		{name: "help", aboutZh: helpAboutZh, summary: "show this help, or a command's (also COMMAND --help)", summaryZh: "显示本帮助，或某个命令的帮助（也可用 COMMAND --help）",
			usage: "opsassist help [COMMAND]", about: "Prints the help, or COMMAND's usage, flags and examples.",
			examples: []string{"opsassist help ask"}},
	}
}

// findCommand returns the command named name; the REPL's alias "chat"
// and the flag set "audit verify" find their commands.
func findCommand(name string) (commandDoc, bool) {
	switch name {
	case "chat", "opsassist":
		name = "repl"
	case "audit verify":
		name = "audit"
	}
	for _, cd := range commands() {
		if cd.name == name {
			return cd, true
		}
	}
	return commandDoc{}, false
}

// writeFlags writes fl as an aligned flag list, in Chinese when zh.
func writeFlags(b *strings.Builder, fl []flagDoc, zh bool) {
	for _, f := range fl {
		left := dashed(f.name)
		if f.arg != "" {
			left += " " + f.arg
		}
		fmt.Fprintf(b, "  %-18s %s\n", left, pick(zh && f.zh != "", f.zh, f.text))
	}
}

// globalHelp is "opsassist --help": every command with a line, the
// connection flags, the REPL's slash commands, the environment and the
// exit status. With zh (a Chinese locale) the headings, the commands'
// summaries, the flags, the REPL's commands and the notes are in
// Chinese; command and flag names and usage lines stay as they are.
func globalHelp(zh bool) string {
	var b strings.Builder
	b.WriteString(pick(zh, "用法：", "usage: ") + "opsassist [flags] [COMMAND] [ARGS…]\n\n" +
		pick(zh, "不带命令时，opsassist 启动交互式对话（REPL）。\n\n", "With no command, opsassist starts the interactive chat (REPL).\n\n"))
	for _, cd := range commands() {
		for _, u := range strings.Split(cd.usage, "\n") {
			fmt.Fprintf(&b, "  %s\n", usageLine(u, zh))
		}
	}
	b.WriteString(pick(zh, "\n命令：\n", "\ncommands:\n"))
	for _, cd := range commands() {
		fmt.Fprintf(&b, "  %-15s %s\n", cd.name, pick(zh, cd.summaryZh, cd.summary))
	}
	b.WriteString(pick(zh, "\n\"opsassist COMMAND --help\" 或 \"opsassist help COMMAND\" 显示命令的用法、参数和示例。\n\n",
		"\n\"opsassist COMMAND --help\" or \"opsassist help COMMAND\" shows a command's usage,\nflags and examples.\n\n"))
	b.WriteString(pick(zh, "参数（放在命令前后均可）：\n", "flags (before or after the command):\n"))
	writeFlags(&b, append(globalFlags(), versionFlag()), zh)
	b.WriteString(pick(zh, "\nREPL 中的", "\nin the REPL, ") + pick(zh, replHelpZh, replHelp))
	b.WriteString(pick(zh, `
环境变量：OPSASSIST_DOWNLOAD=auto|ask（REPL：立即下载提供的文件，或确认后再
下载；默认 auto），OPSASSIST_DOWNLOAD_DIR（REPL 的下载目录；默认 .）

退出状态：0 成功（download：仅在 SHA-256 校验一致之后），1 运行时错误
（audit verify：日志已损坏；tool：调用失败或被拒绝），2 用法错误（audit
verify：数据目录或日志文件也无法读取）
`, `
environment: OPSASSIST_DOWNLOAD=auto|ask (REPL: download offers at once, or
after a yes; default auto), OPSASSIST_DOWNLOAD_DIR (REPL downloads; default .)

exit status: 0 ok (download: only after the SHA-256 matched), 1 runtime error
(audit verify: a broken log; tool: a call that failed or was refused), 2 usage
error (audit verify: also a data directory or log file that cannot be read)
`))
	return b.String()
}

// commandHelp is "opsassist NAME --help": usage, what it does, its
// flags, the connection flags if it takes them, and examples. With zh
// the headings, what it does, the flags and the examples' comments are
// in Chinese (helpzh.go).
func commandHelp(cd commandDoc, zh bool) string {
	var b strings.Builder
	for i, u := range strings.Split(cd.usage, "\n") {
		u = usageLine(u, zh)
		if i == 0 {
			fmt.Fprintf(&b, "%s%s\n", pick(zh, "用法：", "usage: "), u)
		} else {
			fmt.Fprintf(&b, "%s%s\n", pick(zh, "      ", "       "), u)
		}
	}
	about := cd.about
	if zh && cd.aboutZh != "" {
		about = cd.aboutZh
	}
	if strings.HasPrefix(about, "usage:") {
		// The command's own usage text: its first paragraph repeats the
		// usage lines above.
		if _, rest, ok := strings.Cut(about, "\n\n"); ok {
			about = rest
		}
	}
	fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(about, "\n"))
	if len(cd.flags) > 0 {
		b.WriteString(pick(zh, "\n参数：\n", "\nflags:\n"))
		writeFlags(&b, cd.flags, zh)
	}
	if cd.global {
		b.WriteString(pick(zh, "\n连接参数（放在命令前后均可）：\n", "\nconnection flags (before or after the command):\n"))
		writeFlags(&b, globalFlags()[:7], zh)
	}
	b.WriteString(pick(zh, "\n示例：\n", "\nexamples:\n"))
	examples := cd.examples
	if zh && cd.examplesZh != nil {
		examples = cd.examplesZh
	}
	for _, e := range examples {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

// runHelp runs "opsassist help [COMMAND]".
func (c *CLI) runHelp(args []string) int {
	if len(args) == 0 {
		c.printf(c.stdout(), "%s", globalHelp(c.chinese()))
		return ExitOK
	}
	cd, ok := findCommand(args[0])
	if !ok || len(args) > 1 {
		c.printf(c.stderr(), "opsassist: %s\n", c.say(fmt.Sprintf("没有 %q 的帮助；命令有：%s", strings.Join(args, " "), commandNames()),
			fmt.Sprintf("no help for %q; the commands are: %s", strings.Join(args, " "), commandNames())))
		return ExitUsage
	}
	c.printf(c.stdout(), "%s", commandHelp(cd, c.chinese()))
	return ExitOK
}

// commandNames lists the commands, comma-separated.
func commandNames() string {
	var names []string
	for _, cd := range commands() {
		names = append(names, cd.name)
	}
	return strings.Join(names, ", ")
}

// usageError reports a wrong command line of command name on stderr: the
// problem, the command's usage lines and where its help is. It returns
// ExitUsage.
func (c *CLI) usageError(name, problem string) int {
	if problem != "" {
		c.printf(c.stderr(), "opsassist: %s\n", problem)
	}
	cd, ok := findCommand(name)
	if !ok || name == "opsassist" {
		c.printf(c.stderr(), "usage: opsassist [flags] [COMMAND] [ARGS…]\n%s\n", c.say("运行 \"opsassist --help\" 查看命令和参数", "run \"opsassist --help\" for the commands and flags"))
		return ExitUsage
	}
	c.printf(c.stderr(), "usage: %s\n%s\n", strings.ReplaceAll(cd.usage, "\n", "\n       "),
		c.say(fmt.Sprintf("运行 \"opsassist %s --help\" 查看参数和示例", cd.name), fmt.Sprintf("run \"opsassist %s --help\" for its flags and examples", cd.name)))
	return ExitUsage
}

// flagError turns fs's parsing error into an exit code: --help prints
// the command's help on stdout and exits 0; a bad flag, which the flag
// package has already reported on stderr, adds the usage there and
// exits 2.
func (c *CLI) flagError(fs *flag.FlagSet, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		if cd, ok := findCommand(fs.Name()); ok && fs.Name() != "opsassist" {
			c.printf(c.stdout(), "%s", commandHelp(cd, c.chinese()))
		} else {
			c.printf(c.stdout(), "%s", globalHelp(c.chinese()))
		}
		return ExitOK
	}
	return c.usageError(fs.Name(), "")
}
