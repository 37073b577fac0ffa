package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"opsassist/api"
	"opsassist/client"
)

// EnvHTTP names the server's HTTP listener for "tools", /tools and /tool.
const EnvHTTP = "OPSASSIST_HTTP"

// DefaultHTTP is the HTTP listener when neither --http nor OPSASSIST_HTTP
// is given: opsassistd's default.
const DefaultHTTP = "127.0.0.1:8080"

const toolsUsage = `usage: opsassist [flags] tools [--json] [--http ADDR]

Lists the server's tools — name, source (builtin or mcp:SERVER), risk,
whether the model is offered it, the first line of its description — then
each configured MCP server's state. --json prints GET /api/tools as the
server sent it. NPLT has no frame for this: the command uses the server's
HTTP listener (--http ADDR, env OPSASSIST_HTTP, default 127.0.0.1:8080)
with the same --token and TLS flags.
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
	fs.Usage = func() { c.printf(c.stderr(), "%s", toolsUsage) }
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(err)
	}
	if len(pos) > 0 {
		c.printf(c.stderr(), "opsassist: tools takes no arguments\n%s", toolsUsage)
		return ExitUsage
	}
	ta, err := c.toolsAPI(cfg)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitUsage
	}
	cat, raw, err := ta.Catalog(ctx)
	if err != nil {
		c.printf(c.stderr(), "opsassist: tools: %v\n", err)
		return ExitError
	}
	if cfg.json {
		c.printf(c.stdout(), "%s\n", strings.TrimSpace(string(raw)))
		return ExitOK
	}
	writeCatalog(c.stdout(), cat)
	return ExitOK
}

// writeCatalog prints the tools as a table, then the MCP servers.
func writeCatalog(w io.Writer, cat api.Catalog) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tRISK\tAVAILABLE\tDESCRIPTION")
	for _, t := range cat.Tools {
		avail := "yes"
		if !t.Available {
			avail = "no (over limits.max_tools)"
		}
		desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, t.Source, t.Risk, avail, oneLine(printable(desc), 80))
	}
	tw.Flush()
	if len(cat.Servers) == 0 {
		return
	}
	fmt.Fprintln(w, "\nMCP servers:")
	for _, s := range cat.Servers {
		line := fmt.Sprintf("  %s: %s, %d tools, %d restarts", s.Name, s.State, s.Tools, s.Restarts)
		if s.Reason != "" {
			line += " — " + oneLine(printable(s.Reason), 200)
		}
		fmt.Fprintln(w, line)
	}
}

// printable replaces control characters (an MCP server's text may hold
// terminal escapes) with spaces.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// writeToolResult prints a direct call's result: the output (a string,
// or the text of a {"text": …} output — an MCP tool's — as is, other JSON
// indented) or the error, then a status line.
func writeToolResult(w io.Writer, name string, r client.ToolResult) {
	if !r.Success {
		fmt.Fprintf(w, "%s failed (%d ms): %s\n", name, r.DurationMS, printableText(r.Error))
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

// tools runs the REPL's /tools: the catalog, as "opsassist tools" prints it.
func (r *repl) tools(ctx context.Context) {
	ta, err := r.cli.toolsAPI(r.cfg)
	if err != nil {
		r.errorf("%v", err)
		return
	}
	cat, _, err := ta.Catalog(ctx)
	if err != nil {
		r.errorf("tools (HTTP %s): %v", r.cfg.http, err)
		return
	}
	writeCatalog(r.out, cat)
}

// tool runs the REPL's /tool NAME [JSON]: a direct call in the current
// conversation, through the server's policy and audit log.
func (r *repl) tool(ctx context.Context, arg string) {
	name, args, _ := strings.Cut(arg, " ")
	args = strings.TrimSpace(args)
	if name == "" {
		r.errorf("usage: /tool NAME [{JSON arguments}]")
		return
	}
	if args != "" && !json.Valid([]byte(args)) {
		r.errorf("/tool %s: the arguments are not valid JSON", name)
		return
	}
	ta, err := r.cli.toolsAPI(r.cfg)
	if err != nil {
		r.errorf("%v", err)
		return
	}
	res, err := ta.Call(ctx, name, r.session, json.RawMessage(args))
	var se *client.ServerError
	if r.session != "" && errors.As(err, &se) && se.Code == api.CodeNotFound && !strings.HasPrefix(se.Message, "no such tool") {
		// A conversation not saved yet lives only in this connection's
		// session: the HTTP API cannot find it, so run the tool outside it.
		r.info("this conversation is not saved yet: the tool runs outside it")
		res, err = ta.Call(ctx, name, "", json.RawMessage(args))
	}
	if err != nil {
		r.errorf("/tool %s (HTTP %s): %v", name, r.cfg.http, err)
		return
	}
	writeToolResult(r.out, name, res)
}
