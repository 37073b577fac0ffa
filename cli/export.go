package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/client"
)

// runExport writes a conversation as Markdown or JSON to stdout or -o
// PATH: over the NPLT connection (SESSION_EXPORT), or the server's HTTP
// API with --http ADDR. Both give the same bytes.
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
	ctx, stop := c.interruptible(ctx)
	defer stop()
	var (
		b    []byte
		addr = cfg.server
	)
	if cfg.http != "" {
		ta, terr := c.toolsAPI(cfg)
		if terr != nil {
			c.printf(c.stderr(), "opsassist: %v\n", terr)
			return ExitUsage
		}
		addr = cfg.http
		b, err = ta.Export(ctx, rest[0], *format)
		err = c.exportError(err, rest[0], false)
	} else {
		// The export names its conversation: the connection needs none
		// (a --session or OPSASSIST_SESSION that is gone must not fail
		// it), and an unsaved new one leaves nothing behind.
		dc := cfg
		dc.session = ""
		conn, derr := client.Dial(ctx, cfg.server, c.options(dc))
		if derr != nil {
			c.dialError(dc, derr)
			return ExitError
		}
		defer c.closeConn(conn)
		b, err = conn.Export(ctx, rest[0], *format)
		err = c.exportError(err, rest[0], false)
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: export %s: %s\n", rest[0], c.friendly(err, addr, cfg.debug))
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

// exportError says what to do when the server cannot export over NPLT
// (an older version), and names conversation id when the server knows
// none the user may see, in the user's language; other errors are
// returned as they are. The hint names the command that lists the
// conversations where the user is: /sessions in the REPL (repl),
// opsassist sessions otherwise.
func (c *CLI) exportError(err error, id string, repl bool) error {
	switch {
	case errors.Is(err, client.ErrExportUnsupported):
		return errors.New(c.say("该服务器不支持通过 NPLT 导出（版本较旧）：请加 --http 地址，改用其 HTTP 接口",
			"this server cannot export over NPLT (an older version): add --http ADDR to use its HTTP API"))
	case errors.Is(err, &client.ServerError{Code: api.CodeNotFound}):
		c.logger().Debug("export refused", zap.Error(err))
		list := pick(repl, "/sessions", "opsassist sessions")
		return fmt.Errorf(c.say("没有对话 %q（不存在、已删除或属于其他用户）——%s 可列出你的对话",
			"no conversation %q (unknown, deleted, or another user's) — %s lists yours"), id, list)
	}
	return err
}

// export runs /export [md|json] [PATH]: the current conversation, over
// the REPL's connection or the HTTP API (--http), to PATH or the screen.
func (r *repl) export(ctx context.Context, arg string) {
	format, path := "md", ""
	fields := strings.Fields(arg)
	if len(fields) > 0 && (fields[0] == "md" || fields[0] == "json") {
		format, fields = fields[0], fields[1:]
	}
	if len(fields) > 1 {
		r.errorf("%s", r.cli.say("用法：/export [md|json] [路径]", "usage: /export [md|json] [PATH]"))
		return
	}
	if len(fields) == 1 {
		path = fields[0]
	}
	write := func(b []byte) {
		if path == "" {
			r.printf("%s\n", strings.TrimRight(string(b), "\n"))
			return
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			r.errorf(r.cli.say("导出：%s", "export: %s"), r.cli.friendly(err, r.cfg.server, r.cfg.debug))
			return
		}
		r.info(fmt.Sprintf(r.cli.say("已写入 %s", "wrote %s"), path))
	}
	if r.cfg.http == "" {
		r.do(ctx, func(ctx context.Context, c *client.Conn) error {
			id := c.SessionID()
			b, err := c.Export(ctx, id, format)
			if err != nil {
				return r.cli.exportError(err, id, true)
			}
			write(b)
			return nil
		})
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
		r.errorf(r.cli.say("导出（HTTP %s）：%s", "export (HTTP %s): %s"), r.cfg.http, r.cli.friendly(err, r.cfg.http, r.cfg.debug))
		return
	}
	write(b)
}
