package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// runExport writes a conversation as Markdown or JSON to stdout or -o
// PATH, over the server's HTTP API (--http ADDR).
func (c *CLI) runExport(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("export", &cfg)
	format := fs.String("format", "md", "")
	out := fs.String("o", "", "")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(rest) != 1 {
		return c.usageError("export", c.say("export 需要一个对话 id", "export needs one conversation id"))
	}
	if *format != "md" && *format != "json" {
		return c.usageError("export", c.say("--format 只能是 md 或 json", "--format must be md or json"))
	}
	if cfg.http == "" {
		return c.usageError("export", c.say("export 通过服务器的 HTTP 接口导出：请加 --http 地址（或设置 OPSASSIST_TOOLS_HTTP）", "export uses the server's HTTP API: add --http ADDR (or set OPSASSIST_TOOLS_HTTP)"))
	}
	ta, err := c.toolsAPI(cfg)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitUsage
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	b, err := ta.Export(ctx, rest[0], *format)
	if err != nil {
		c.printf(c.stderr(), "opsassist: export %s: %s\n", rest[0], c.friendly(err, cfg.http, cfg.debug))
		return ExitError
	}
	if *out == "" {
		_, err = c.stdout().Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o600)
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: export: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// export runs /export [md|json] [PATH]: the current conversation over
// the HTTP API (--http), to PATH or the screen.
func (r *repl) export(ctx context.Context, arg string) {
	format, path := "md", ""
	fields := strings.Fields(arg)
	if len(fields) > 0 && (fields[0] == "md" || fields[0] == "json") {
		format, fields = fields[0], fields[1:]
	}
	if len(fields) > 1 {
		r.errorf("usage: /export [md|json] [PATH]")
		return
	}
	if len(fields) == 1 {
		path = fields[0]
	}
	if r.cfg.http == "" {
		r.errorf("%s", r.cli.say("/export 通过服务器的 HTTP 接口导出：请用 --http 地址启动 REPL", "/export uses the server's HTTP API: start the REPL with --http ADDR"))
		return
	}
	id := r.session
	if r.conn != nil && r.conn.SessionID() != "" {
		id = r.conn.SessionID()
	}
	if id == "" {
		r.errorf("%s", r.cli.say("还没有对话", "no conversation yet"))
		return
	}
	ta, err := r.cli.toolsAPI(r.cfg)
	if err != nil {
		r.fail(err)
		return
	}
	b, err := ta.Export(ctx, id, format)
	if err != nil {
		r.errorf("export (HTTP %s): %s", r.cfg.http, r.cli.friendly(err, r.cfg.server, r.cfg.debug))
		return
	}
	if path == "" {
		r.printf("%s\n", strings.TrimRight(string(b), "\n"))
		return
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		r.errorf("export: %v", err)
		return
	}
	r.info(fmt.Sprintf(r.cli.say("已写入 %s", "wrote %s"), path))
}
