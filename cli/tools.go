package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"opsassist/api"
	"opsassist/client"
	"opsassist/tools"
)

// EnvToolsHTTP names the server's HTTP listener for "tools", "tool", /tools
// and /tool when they should use the HTTP API instead of NPLT.
const EnvToolsHTTP = "OPSASSIST_TOOLS_HTTP"

const toolsUsage = `usage: opsassist [flags] tools [--json]
       opsassist [flags] tool NAME ['{JSON arguments}']

tools lists the server's tools — name, source (builtin or mcp:SERVER),
risk, whether the model is offered it, what it does in your language (an
MCP tool: the first line of its description) — then each configured MCP
server's state; --json prints the catalog
(the api.Catalog JSON of GET /api/tools) as the server sent it.

tool calls one tool directly, through the server's permission policy (a
deny still denies; a call it would ask about counts as approved by this
command) and audit log, in a new conversation or the one --session
names, and prints its output; exit status 1 when the call failed or was
refused. A file_download call's output is its download offer; the
command then says on stderr how to fetch it (opsassist download TOKEN -o
NAME), and the REPL's /tool shows it as a chat turn's offer (/download).

Both use the NPLT connection (--server, --token, TLS flags), like every
other command; with --http ADDR (env OPSASSIST_TOOLS_HTTP) they use the
server's HTTP API at ADDR instead, with the same token and TLS flags.
`

// toolsAPI is the HTTP tools client for cfg.
func (c *CLI) toolsAPI(cfg cliConfig) (*client.ToolsAPI, error) {
	conf, err := cfg.tls.config()
	if err != nil {
		return nil, err
	}
	return &client.ToolsAPI{Addr: cfg.http, Token: cfg.token, TLS: conf}, nil
}

// runTools runs "opsassist tools".
func (c *CLI) runTools(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("tools", &cfg)
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(pos) > 0 {
		c.printf(c.stderr(), "opsassist: tools takes no arguments\n%s", toolsUsage)
		return ExitUsage
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	var (
		cat api.Catalog
		raw json.RawMessage
	)
	if cfg.http != "" {
		ta, err := c.toolsAPI(cfg)
		if err != nil {
			c.printf(c.stderr(), "opsassist: %v\n", err)
			return ExitUsage
		}
		cat, raw, err = ta.Catalog(ctx)
		if err != nil {
			c.printf(c.stderr(), "opsassist: tools: %s\n", c.friendly(err, cfg.http, cfg.debug))
			return ExitError
		}
	} else {
		conn, err := client.Dial(ctx, cfg.server, c.options(cfg))
		if err != nil {
			c.dialError(cfg, err)
			return ExitError
		}
		defer c.closeConn(conn)
		if cat, raw, err = conn.Tools(ctx); err != nil {
			c.printf(c.stderr(), "opsassist: tools: %s\n", c.friendly(toolsError(err), cfg.server, cfg.debug))
			return ExitError
		}
	}
	if cfg.json {
		c.printf(c.stdout(), "%s\n", strings.TrimSpace(string(raw)))
		return ExitOK
	}
	writeCatalog(c.stdout(), cat, c.chinese())
	return ExitOK
}

// runTool runs "opsassist tool NAME [JSON]": one direct call, its result
// printed as the REPL's /tool prints it; exit 1 unless it succeeded.
func (c *CLI) runTool(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("tool", &cfg)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(pos) < 1 || len(pos) > 2 {
		c.printf(c.stderr(), "opsassist: tool takes a name and, optionally, one JSON object of arguments\n%s", toolsUsage)
		return ExitUsage
	}
	name, argJSON := pos[0], ""
	if len(pos) == 2 {
		argJSON = strings.TrimSpace(pos[1])
	}
	if argJSON != "" && !json.Valid([]byte(argJSON)) {
		c.printf(c.stderr(), "opsassist: %s\n", c.badToolArgs(name))
		return ExitUsage
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	var res client.ToolResult
	if cfg.http != "" {
		ta, err := c.toolsAPI(cfg)
		if err != nil {
			c.printf(c.stderr(), "opsassist: %v\n", err)
			return ExitUsage
		}
		res, err = ta.Call(ctx, name, strings.TrimSpace(cfg.session), json.RawMessage(argJSON))
		if err != nil {
			c.printf(c.stderr(), "opsassist: tool %s: %s\n", name, c.friendly(c.toolCallError(err, false), cfg.http, cfg.debug))
			return ExitError
		}
	} else {
		conn, err := client.Dial(ctx, cfg.server, c.options(cfg))
		if err != nil {
			c.dialError(cfg, err)
			return ExitError
		}
		defer c.closeConn(conn)
		if res, err = conn.CallTool(ctx, name, json.RawMessage(argJSON)); err != nil {
			c.printf(c.stderr(), "opsassist: tool %s: %s\n", name, c.friendly(c.toolCallError(toolsError(err), false), cfg.server, cfg.debug))
			return ExitError
		}
	}
	writeToolResult(c.stdout(), name, res, c.chinese(), cfg.debug, argJSON)
	if o, ok := resultOffer(name, res); ok {
		c.printf(c.stderr(), "to fetch %s: opsassist download %s -o %q\n", printable(o.Filename), o.DownloadToken, printable(o.Filename))
	}
	if !res.Success {
		return ExitError
	}
	return ExitOK
}

// downloadTool is the built-in tool whose result is a download offer.
const downloadTool = "file_download"

// resultOffer returns the download offer in the result of a direct call
// of file_download. A direct call sends no DOWNLOAD_OFFER (it is no chat
// turn): its result carries the offer — transport_mode, download_token,
// download_url, file_size, sha256, the api.Offer fields — and the token
// is the caller's, fetched like any offer (/download, opsassist
// download).
func resultOffer(name string, r client.ToolResult) (api.Offer, bool) {
	var o api.Offer
	if name != downloadTool || !r.Success || json.Unmarshal(r.Output, &o) != nil || o.DownloadToken == "" || o.Filename == "" {
		return api.Offer{}, false
	}
	return o, true
}

// toolOffer is the REPL's handling of a /tool result's download offer:
// shown as a chat turn's DOWNLOAD_OFFER is, and remembered (and, for
// RDT, downloaded) by repl.offer.
func (r *repl) toolOffer(ctx context.Context, name string, res client.ToolResult) {
	if o, ok := resultOffer(name, res); ok {
		r.printf("%s\n", offerLine(r.cli.chinese(), o))
		r.offer(ctx, o)
	}
}

// badToolArgs says that name's arguments are not a JSON object, in the
// CLI's language.
func (c *CLI) badToolArgs(name string) string {
	return fmt.Sprintf(c.say(`%s 的参数不是有效的 JSON（应为一个对象，例如 '{"path":"/var/log"}'）`,
		`the arguments of %s are not valid JSON (give one object, e.g. '{"path":"/var/log"}')`), name)
}

// toolCallError words a refused direct call in the CLI's language: an
// unknown tool names the command that lists them where the user is
// (/tools in the REPL, opsassist tools otherwise) instead of the
// server's protocol names; other errors are returned as they are.
func (c *CLI) toolCallError(err error, repl bool) error {
	var se *client.ServerError
	if !errors.As(err, &se) || se.Code != api.CodeNotFound || !strings.HasPrefix(se.Message, "no such tool") {
		return err
	}
	name := quotedDetail.FindString(se.Message)
	list := pick(repl, "/tools", "opsassist tools")
	return fmt.Errorf(c.say("没有工具 %s——%s 可列出全部工具", "no such tool: %s (%s lists them)"), name, list)
}

// toolsError explains ErrToolsUnsupported: an older server may still
// answer over HTTP.
func toolsError(err error) error {
	if errors.Is(err, client.ErrToolsUnsupported) {
		return fmt.Errorf("%w (an older server: try --http ADDR, its HTTP listener)", err)
	}
	return err
}

// writeCatalog prints the tools as a table, then the MCP servers, in
// the CLI's language (zh): the header, the source, risk and availability
// values; --json output is the server's, unchanged. A tool's description
// is its summary in that language, or, for a tool without one (an MCP
// tool's, an older server's), the first line of its description as the
// server sent it. Columns are aligned counting Chinese characters double.
func writeCatalog(w io.Writer, cat api.Catalog, zh bool) {
	say := func(z, e string) string { return pick(zh, z, e) }
	rows := [][]string{{say("名称", "NAME"), say("来源", "SOURCE"), say("风险", "RISK"), say("可用", "AVAILABLE"), say("说明", "DESCRIPTION")}}
	for _, t := range cat.Tools {
		avail := say("是", "yes")
		if !t.Available {
			avail = say("否（超出 limits.max_tools）", "no (over limits.max_tools)")
		}
		desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		if s := (api.Text{Zh: t.SummaryZh, En: t.SummaryEn}).In(zh); s != "" {
			desc = s
		}
		rows = append(rows, []string{t.Name, sourceText(zh, t.Source), riskText(zh, t.Risk), avail, oneLine(printable(desc), 80)})
	}
	for _, line := range alignRows(rows, []int{0, 1, 2, 3, 4}) {
		fmt.Fprintln(w, strings.TrimPrefix(line, "  "))
	}
	if len(cat.Servers) == 0 {
		return
	}
	fmt.Fprintln(w, say("\nMCP 服务器：", "\nMCP servers:"))
	for _, s := range cat.Servers {
		line := fmt.Sprintf(say("  %s：%s，%d 个工具，重启 %d 次", "  %s: %s, %d tools, %d restarts"), s.Name, s.State, s.Tools, s.Restarts)
		if s.Reason != "" {
			line += " — " + oneLine(printable(s.Reason), 200)
		}
		fmt.Fprintln(w, line)
	}
}

// riskTexts are the catalog's risk levels in Chinese.
var riskTexts = map[string]string{"read_only": "只读", "sensitive": "敏感", "dangerous": "危险"}

// riskText is a tool's risk level in the CLI's language; an unknown one
// is shown as the server sent it.
func riskText(zh bool, risk string) string {
	if t, ok := riskTexts[risk]; ok && zh {
		return t
	}
	return risk
}

// sourceText is where a tool comes from, in the CLI's language:
// "builtin" is 内置 in Chinese; an MCP server's name ("mcp:fs") stays.
func sourceText(zh bool, source string) string {
	if zh && source == "builtin" {
		return "内置"
	}
	return source
}

// printable replaces control characters (an MCP server's text may hold
// terminal escapes) with spaces: C0 (ESC, newlines, tabs), DEL and C1
// (U+009B is a CSI on some terminals).
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// writeToolResult prints a direct call's result: the output (a string,
// or the text of a {"text": …} output — an MCP tool's — as is, other JSON
// indented) or why it failed, then a status line. The failure is said
// from the result's code (tools.FailureText) in the CLI's language
// (zh), naming the file or command of args, the call's JSON arguments,
// without the registry's wording ("call to X denied by policy:"), then
// the tool's own error when that sentence does not carry it — with
// debug (--debug), the raw error always.
func writeToolResult(w io.Writer, name string, r client.ToolResult, zh, debug bool, args string) {
	if !r.Success {
		var a map[string]any
		_ = json.Unmarshal([]byte(args), &a) // none: no subject from them
		said := tools.FailureText(zh, r.Code, name, r.Error, a)
		fmt.Fprintf(w, "%s\n", printableText(said))
		if why := tools.FailureDetail(zh, r.Code, r.Error); why != "" {
			// A direct call is for the tool's own answer: its error is
			// shown as the tool gave it where the sentence above leaves
			// an English reason out of a Chinese text.
			fmt.Fprintf(w, pick(zh, "详情：%s\n", "details: %s\n"), printableText(why))
		} else if debug && r.Error != "" {
			fmt.Fprintf(w, "[debug: %s]\n", printableText(r.Error))
		}
		fmt.Fprintf(w, pick(zh, "（%s：失败，%d ms）\n", "(%s: failed, %d ms)\n"), name, r.DurationMS)
		return
	}
	var s string
	var text struct {
		Text *string `json:"text"`
	}
	var buf bytes.Buffer
	switch {
	case json.Unmarshal(r.Output, &s) == nil:
	case json.Unmarshal(r.Output, &text) == nil && text.Text != nil:
		s = *text.Text
	case json.Indent(&buf, r.Output, "", "  ") == nil:
		s = buf.String()
	default:
		s = string(r.Output)
	}
	fmt.Fprintf(w, "%s\n(%s: ok, %d ms)\n", strings.TrimRight(printableText(s), "\n"), name, r.DurationMS)
}

// printableText is printable but keeps newlines and tabs.
func printableText(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// tools runs the REPL's /tools: the catalog, as "opsassist tools" prints
// it, over the REPL's connection (or the HTTP API with --http).
func (r *repl) tools(ctx context.Context) {
	if r.cfg.http != "" {
		r.toolsHTTP(ctx)
		return
	}
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		cat, _, err := c.Tools(ctx)
		if err != nil {
			return toolsError(err)
		}
		writeCatalog(r.out, cat, r.cli.chinese())
		return nil
	})
}

// tool runs the REPL's /tool NAME [JSON]: a direct call in the current
// conversation, through the server's policy and audit log, over the
// REPL's connection (or the HTTP API with --http).
func (r *repl) tool(ctx context.Context, arg string) {
	name, args, _ := strings.Cut(arg, " ")
	args = strings.TrimSpace(args)
	if name == "" {
		r.errorf("%s", r.cli.say("用法：/tool 名称 [{JSON 参数}]", "usage: /tool NAME [{JSON arguments}]"))
		return
	}
	if args != "" && !json.Valid([]byte(args)) {
		r.errorf("%s", r.cli.badToolArgs(name))
		return
	}
	if r.cfg.http != "" {
		r.toolHTTP(ctx, name, args)
		return
	}
	var res client.ToolResult
	called := false
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		var err error
		res, err = c.CallTool(ctx, name, json.RawMessage(args))
		if err != nil {
			return fmt.Errorf("/tool %s: %w", name, r.cli.toolCallError(toolsError(err), true))
		}
		writeToolResult(r.out, name, res, r.cli.chinese(), r.cfg.debug, args)
		called = true
		return nil
	})
	if called {
		r.toolOffer(ctx, name, res)
	}
}

// toolsHTTP is /tools over the HTTP API.
func (r *repl) toolsHTTP(ctx context.Context) {
	ta, err := r.cli.toolsAPI(r.cfg)
	if err != nil {
		r.fail(err)
		return
	}
	cat, _, err := ta.Catalog(ctx)
	if err != nil {
		r.errorf("tools (HTTP %s): %s", r.cfg.http, r.cli.friendly(err, r.cfg.server, r.cfg.debug))
		return
	}
	writeCatalog(r.out, cat, r.cli.chinese())
}

// toolHTTP is /tool over the HTTP API. A conversation not saved yet
// lives only in the NPLT connection's session, which the HTTP API cannot
// find: the tool then runs outside it.
func (r *repl) toolHTTP(ctx context.Context, name, args string) {
	ta, err := r.cli.toolsAPI(r.cfg)
	if err != nil {
		r.fail(err)
		return
	}
	res, err := ta.Call(ctx, name, r.session, json.RawMessage(args))
	var se *client.ServerError
	if r.session != "" && errors.As(err, &se) && se.Code == api.CodeNotFound && !strings.HasPrefix(se.Message, "no such tool") {
		r.info("this conversation is not saved yet: the tool runs outside it")
		res, err = ta.Call(ctx, name, "", json.RawMessage(args))
	}
	if err != nil {
		r.errorf("/tool %s (HTTP %s): %s", name, r.cfg.http, r.cli.friendly(r.cli.toolCallError(err, true), r.cfg.server, r.cfg.debug))
		return
	}
	writeToolResult(r.out, name, res, r.cli.chinese(), r.cfg.debug, args)
	r.toolOffer(ctx, name, res)
}
