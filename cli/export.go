package cli

import (
	"context"
	"os"
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
