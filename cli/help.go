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
}

// commandDoc documents one subcommand. commands is the one table the
// global help, per-command help and shell completion are built from.
type commandDoc struct {
	name     string
	summary  string // one line, for the global help
	usage    string // the usage lines
	about    string // what it does, a paragraph or more
	flags    []flagDoc
	global   bool // takes the connection flags (--server, --token, …)
	examples []string
}

// globalFlags are the connection flags every networked command takes,
// before or after the command.
func globalFlags() []flagDoc {
	return []flagDoc{
		{"server", "ADDR", "server address (default 127.0.0.1:9999, env OPSASSIST_SERVER)"},
		{"token", "T", "access token (env OPSASSIST_TOKEN)"},
		{"tls", "", "connect with TLS, verifying the server against the system's CAs (env OPSASSIST_TLS=1)"},
		{"tls-ca", "FILE", "with TLS, trust the CA or self-signed certificate in FILE (PEM) instead (env OPSASSIST_TLS_CA)"},
		{"insecure", "", "with TLS, skip certificate verification: anyone on the path can read the traffic (env OPSASSIST_INSECURE=1)"},
		{"session", "ID", "continue conversation ID, or a unique prefix of it (env OPSASSIST_SESSION); ask and upload fail if it does not exist, the REPL starts a new one"},
		{"http", "ADDR", "tools, tool, export, /tools, /tool: use the server's HTTP API at ADDR instead of the NPLT connection (env OPSASSIST_TOOLS_HTTP)"},
		{"v", "", "ask: show agent status lines and the session id on stderr"},
		{"debug", "", "after each error message, print the raw error in brackets"},
		{"render", "MODE", "answers' Markdown (ask, REPL): auto renders it (headings, code blocks, lists, tables) when stdout is a terminal and prints the source unchanged otherwise; always, never force either (env OPSASSIST_RENDER); NO_COLOR=1 keeps the layout, no colour"},
	}
}

// commands returns the subcommand table, in the order the help lists it.
func commands() []commandDoc {
	return []commandDoc{
		{name: "ask", summary: "ask one question, print the answer", global: true,
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
				{"json", "", "print one JSON event per line"},
				{"yes", "", "allow, once, each tool call that asks for permission"},
				{"model", "NAME", "switch the conversation to model NAME first (as /model NAME)"},
				{"name", "NAME", "the file name piped stdin is uploaded as (default stdin.txt)"},
				{"new", "", "start a new conversation instead of this terminal's last one"},
				{"v", "", "show agent status lines and the session id on stderr"},
			},
			examples: []string{
				`opsassist ask "磁盘还剩多少空间？"`,
				`cat app.log | opsassist ask "有什么错误？"`,
				`echo "what is the load average?" | opsassist ask --model deepseek -`,
			}},
		{name: "upload", summary: "upload files into a conversation, print their ids", global: true,
			usage: "opsassist [flags] upload [--json] FILE…",
			about: "Uploads each FILE, with a progress bar on a terminal, and prints one line\n" +
				"per file: its name, size, file_id, SHA-256 and the conversation.",
			flags: []flagDoc{
				{"json", "", "print one JSON result per file"},
				{"new", "", "start a new conversation instead of this terminal's last one"},
			},
			examples: []string{"opsassist upload app.log", "opsassist --session 3f2a upload a.conf b.conf"}},
		{name: "download", summary: "download an offered file over RDT (UDP), resuming", global: true,
			usage: "opsassist [flags] download TOKEN -o PATH [--rdt HOST:PORT] [--sha256 HEX]",
			about: "Downloads the file a download offer names by TOKEN into PATH over RDT\n" +
				"(UDP), resuming PATH.part; falls back to NPLT when no RDT packet arrives\n" +
				"in 3 s. Exit status 0 only after the SHA-256 matched.",
			flags: []flagDoc{
				{"o", "PATH", "where to save the file"},
				{"rdt", "HOST:PORT", "RDT server (default: the server's host, port 9998; env OPSASSIST_RDT)"},
				{"sha256", "HEX", "the expected SHA-256 (default: the offer's)"},
				{"json", "", "print one JSON result"},
			},
			examples: []string{"opsassist download 7c1e9a -o backup.tar.gz"}},
		{name: "tools", summary: "list the server's tools and MCP servers", global: true,
			usage: "opsassist [flags] tools [--json]", about: toolsUsage,
			flags:    []flagDoc{{"json", "", "print the catalog JSON as the server sent it"}},
			examples: []string{"opsassist tools", "opsassist --http 127.0.0.1:8080 tools --json"}},
		{name: "export", summary: "write a conversation as Markdown or JSON", global: true,
			usage: "opsassist [flags] --http ADDR export [--format md|json] [-o PATH] ID",
			about: "Writes conversation ID (or a unique prefix) to stdout or PATH: md, a\n" +
				"transcript with tool calls summarised; json, the stored messages. It\n" +
				"uses the server's HTTP API (--http ADDR, env OPSASSIST_TOOLS_HTTP).",
			flags: []flagDoc{
				{"format", "md|json", "md (default) or json"},
				{"o", "PATH", "write to PATH instead of stdout"},
			},
			examples: []string{"opsassist --http 127.0.0.1:8080 export 3f2a > 3f2a.md"}},
		{name: "tool", summary: "call one tool directly, print its output", global: true,
			usage: "opsassist [flags] tool NAME ['{JSON arguments}']", about: toolsUsage,
			examples: []string{"opsassist tool sysmon", `opsassist tool command '{"command":"uptime"}'`}},
		{name: "repl", summary: "interactive chat (the default with no command; also \"chat\")", global: true,
			usage: "opsassist [flags] [--yes] [repl]",
			about: "Chats interactively: type a question, or a slash command:\n\n" + replHelp,
			flags: []flagDoc{
				{"yes", "", "/clear and /delete do not ask y/N first"},
			},
			examples: []string{"opsassist", "opsassist --session 3f2a"}},
		{name: "eval", summary: "score the planner's tool choices, locally",
			usage: "opsassist eval --cases FILE [--llm builtin|NAME] [--config FILE]", about: evalUsage,
			flags: []flagDoc{
				{"cases", "FILE", "the cases, one JSON object per line"},
				{"llm", "NAME", "builtin (default) or a provider"},
				{"config", "FILE", "the server's YAML config, for its providers"},
			},
			examples: []string{"opsassist eval --cases testdata/eval.jsonl"}},
		{name: "eval-retrieval", summary: "score search over a corpus, locally",
			usage: "opsassist eval-retrieval --corpus DIR --cases FILE [--config FILE] [--mode hybrid|vector|keyword] [--min-score X] [--part all|train|heldout] [--choose-floor]", about: evalRetrievalUsage,
			flags: []flagDoc{
				{"corpus", "DIR", "the files to index"},
				{"cases", "FILE", "the queries, one JSON object per line"},
				{"config", "FILE", "the server's YAML config, for its embedder"},
				{"mode", "MODE", "hybrid (default), vector or keyword"},
				{"min-score", "X", "relevance floor, 0–1 (default: the configured search.min_score; 0 keeps every hit)"},
				{"part", "PART", "which cases: all, train or heldout"},
				{"choose-floor", "", "print the floor the relevance rule chooses on these cases instead"},
			},
			examples: []string{"opsassist eval-retrieval --corpus docs --cases cases.jsonl"}},
		{name: "audit", summary: "check the server's audit log (audit verify)",
			usage: "opsassist audit verify [--data DIR]", about: auditUsage,
			flags:    []flagDoc{{"data", "DIR", "the server's data directory (default ./data, env OPSASSIST_DATA)"}},
			examples: []string{"opsassist audit verify", "opsassist audit verify --data /var/lib/opsassist"}},
		{name: "completion", summary: "print a shell completion script (bash, zsh or fish)",
			usage: "opsassist completion bash|zsh|fish",
			about: "Prints a script that completes opsassist's commands and flags.",
			examples: []string{
				`source <(opsassist completion bash)        # in ~/.bashrc`,
				`opsassist completion zsh > "${fpath[1]}/_opsassist"`,
				`opsassist completion fish > ~/.config/fish/completions/opsassist.fish`,
			}},
		{name: "version", summary: "print the version, commit and Go version (also --version)",
			usage: "opsassist version", about: "Prints the version, the commit it was built from and the Go version.",
			examples: []string{"opsassist --version"}},
		{name: "help", summary: "show this help, or a command's (also COMMAND --help)",
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

// writeFlags writes fl as an aligned flag list.
func writeFlags(b *strings.Builder, fl []flagDoc) {
	for _, f := range fl {
		left := dashed(f.name)
		if f.arg != "" {
			left += " " + f.arg
		}
		fmt.Fprintf(b, "  %-18s %s\n", left, f.text)
	}
}

// globalHelp is "opsassist --help": every command with a line, the
// connection flags, the REPL's slash commands, the environment and the
// exit status.
func globalHelp() string {
	var b strings.Builder
	b.WriteString("usage: opsassist [flags] [COMMAND] [ARGS…]\n\n" +
		"With no command, opsassist starts the interactive chat (REPL).\n\n")
	for _, cd := range commands() {
		for _, u := range strings.Split(cd.usage, "\n") {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	b.WriteString("\ncommands:\n")
	for _, cd := range commands() {
		fmt.Fprintf(&b, "  %-15s %s\n", cd.name, cd.summary)
	}
	b.WriteString("\n\"opsassist COMMAND --help\" or \"opsassist help COMMAND\" shows a command's usage,\nflags and examples.\n\n")
	b.WriteString("flags (before or after the command):\n")
	writeFlags(&b, append(globalFlags(), flagDoc{"version", "", "print the version and exit"}))
	b.WriteString("\nin the REPL, " + replHelp)
	b.WriteString(`
environment: OPSASSIST_DOWNLOAD=auto|ask (REPL: download offers at once, or
after a yes; default auto), OPSASSIST_DOWNLOAD_DIR (REPL downloads; default .)

exit status: 0 ok (download: only after the SHA-256 matched), 1 runtime error
(audit verify: a broken log; tool: a call that failed or was refused), 2 usage
error (audit verify: also a data directory or log file that cannot be read)
`)
	return b.String()
}

// commandHelp is "opsassist NAME --help": usage, what it does, its
// flags, the connection flags if it takes them, and examples.
func commandHelp(cd commandDoc) string {
	var b strings.Builder
	for i, u := range strings.Split(cd.usage, "\n") {
		if i == 0 {
			fmt.Fprintf(&b, "usage: %s\n", u)
		} else {
			fmt.Fprintf(&b, "       %s\n", u)
		}
	}
	about := cd.about
	if strings.HasPrefix(about, "usage:") {
		// The command's own usage text: its first paragraph repeats the
		// usage lines above.
		if _, rest, ok := strings.Cut(about, "\n\n"); ok {
			about = rest
		}
	}
	fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(about, "\n"))
	if len(cd.flags) > 0 {
		b.WriteString("\nflags:\n")
		writeFlags(&b, cd.flags)
	}
	if cd.global {
		b.WriteString("\nconnection flags (before or after the command):\n")
		writeFlags(&b, globalFlags()[:7])
	}
	b.WriteString("\nexamples:\n")
	for _, e := range cd.examples {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

// runHelp runs "opsassist help [COMMAND]".
func (c *CLI) runHelp(args []string) int {
	if len(args) == 0 {
		c.printf(c.stdout(), "%s", globalHelp())
		return ExitOK
	}
	cd, ok := findCommand(args[0])
	if !ok || len(args) > 1 {
		c.printf(c.stderr(), "opsassist: %s\n", c.say(fmt.Sprintf("没有 %q 的帮助；命令有：%s", strings.Join(args, " "), commandNames()),
			fmt.Sprintf("no help for %q; the commands are: %s", strings.Join(args, " "), commandNames())))
		return ExitUsage
	}
	c.printf(c.stdout(), "%s", commandHelp(cd))
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
			c.printf(c.stdout(), "%s", commandHelp(cd))
		} else {
			c.printf(c.stdout(), "%s", globalHelp())
		}
		return ExitOK
	}
	return c.usageError(fs.Name(), "")
}

// say returns zh in a Chinese locale (CLI.chinese), else en: usage
// errors have no question to take the language from. CLI.msg is the
// same choice with its arguments the other way round.
func (c *CLI) say(zh, en string) string { return pick(c.chinese(), zh, en) }
