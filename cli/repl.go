package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/peterh/liner"
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/bytesize"
)

// replPrompt is the REPL's prompt.
const replPrompt = "opsassist> "

// noticeBuffer is how many unsolicited events wait for the next prompt.
const noticeBuffer = 32

const replHelp = `commands:
  TEXT                    ask the assistant
  /upload PATH            upload a file
  /download TOKEN [PATH]  download an offered file (RDT, NPLT fallback)
  /sessions [--all] [TEXT]  list the newest 20 conversations (--all: every one), or those whose title or messages contain TEXT
  /new                    start a new conversation
  /switch ID              switch to a conversation (a unique prefix is enough)
  /delete ID...           delete conversations (ID: 4+ characters; asks y/N on a terminal)
  /rename [TITLE]         name this conversation (no TITLE: back to its first message)
  /export [md|json] [PATH]  write this conversation as Markdown or JSON
  /history                show this conversation's messages
  /clear                  clear this conversation's messages (asks y/N on a terminal)
  /model [NAME]           list models, or switch to NAME
  /permissions [revoke ID]  list this conversation's permission grants, or revoke one
  /tools                  list the server's tools and MCP servers
  /tool NAME [JSON]       call a tool directly in this conversation
  /help                   show this help
  /quit                   leave (also Ctrl-D)
`

// repl is one interactive session.
type repl struct {
	cli    *CLI
	cfg    cliConfig
	opts   client.Options
	out    io.Writer // conversation and info lines
	outTTY bool
	// termWidth is out's width in columns when it is a terminal, 0 if
	// unknown (see retryLine).
	termWidth func() int
	errw      io.Writer // error lines
	errTTY    bool
	// live is set while a live line (showLive) is on out's screen: the
	// one owner of it, ended before any other output.
	live bool
	// shuttingDown is set when the server said it is shutting down (a
	// queued notice: flushNotices, watchIdle); the connection's end
	// then says so as information (lostConn, watchIdle).
	shuttingDown bool
	intr         *interruptRouter
	notices      chan client.Event

	conn    *client.Conn
	session string // current conversation, resumed on reconnect; "" for a new one
	// used is the conversation the user has used in this REPL — asked
	// or uploaded in, switched to, or named by --session: losing it (a
	// server restart, a delete elsewhere) is worth saying; losing one
	// never used is not, as a conversation without a message is not
	// saved and vanishes with a restart by design.
	used   string
	offers map[string]api.Offer // by token
	lines  lineReader           // the input, for questions

	sessionIDs []string // the last conversation list, for Tab completion
	modelNames []string // the model names, for Tab completion
	// tabCompletes: the input is the line editor, where Tab completes.
	tabCompletes bool
	// completionStale: a command ran since the lists Tab completes from
	// were fetched (refreshCompletion).
	completionStale bool
	// askConfirm: /clear and /delete ask y/N first (input on a terminal,
	// no --yes).
	askConfirm bool
	// quietReconnect: the loss of the connection was already reported
	// (watchIdle), so the next reconnection says only if it fails.
	quietReconnect bool
}

// newREPL returns a REPL for cfg, not yet connected. idle is what an
// interrupt between requests does.
func (c *CLI) newREPL(cfg cliConfig, idle func()) *repl {
	r := &repl{
		cli:       c,
		cfg:       cfg,
		out:       c.stdout(),
		outTTY:    isTerminal(c.Stdout),
		termWidth: func() int { return terminalWidth(c.Stdout) },
		errw:      c.stderr(),
		errTTY:    isTerminal(c.Stderr),
		intr:      &interruptRouter{idle: idle},
		notices:   make(chan client.Event, noticeBuffer),
		opts:      c.options(cfg),
	}
	r.session = r.opts.SessionID
	r.used = r.session
	r.opts.SessionID = "" // each dial sets it from r.session
	r.opts.OnUnsolicited = r.notice
	return r
}

// runREPL parses the global flags in args and runs the REPL.
func (c *CLI) runREPL(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("opsassist", &cfg)
	fs.BoolVar(&cfg.yes, "yes", cfg.yes, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(pos) > 0 {
		return c.usageError("repl", c.say(fmt.Sprintf("多余的参数 %q", pos[0]), fmt.Sprintf("unexpected argument %q", pos[0])))
	}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	r := c.newREPL(cfg, cancelAll)
	stop := watchInterrupts(c.Interrupts, r.intr.interrupt)
	defer stop()

	if err := r.connect(ctx, r.opts, client.Dial); err != nil {
		r.fail(err)
		return ExitError
	}
	defer func() {
		if r.conn != nil {
			if err := r.conn.Close(); err != nil {
				r.errorf(r.cli.say("关闭连接：%s", "closing connection: %s"), r.cli.friendly(err, r.cfg.server, r.cfg.debug))
			}
		}
	}()
	r.greet()

	lines, err := c.newLineReader()
	if err != nil {
		r.fail(err)
	}
	r.lines = lines
	if lr, ok := lines.(*linerReader); ok {
		r.tabCompletes = true
		lr.st.SetWordCompleter(r.completeWord)
		lr.st.SetTabCompletionStyle(liner.TabPrints) // a second Tab lists the candidates
		// liner handles Ctrl-C at the prompt itself; a stray SIGINT there
		// (liner's fallback mode on a narrow terminal) must not end the
		// REPL.
		r.intr.setIdle(nil)
		r.askConfirm = !cfg.yes
	}
	defer func() {
		if err := lines.close(); err != nil {
			r.fail(err)
		}
	}()
	r.completionStale = true
	for {
		r.flushNotices()
		r.refreshCompletion(ctx)
		stopWatch := r.watchIdle(ctx)
		line, err := lines.readLine(ctx, replPrompt)
		stopWatch()
		if errors.Is(err, errInterrupted) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				r.fail(err)
			}
			if r.outTTY {
				r.printf("\n")
			}
			return ExitOK
		}
		if ctx.Err() != nil {
			return ExitOK
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lines.addHistory(line)
		r.completionStale = true
		if r.execute(ctx, line) {
			return ExitOK
		}
		if ctx.Err() != nil {
			return ExitOK
		}
	}
}

// greet prints a welcome and where the REPL is connected, in the CLI's
// language: the server's greeting, written for every NPLT client, says
// it in both languages.
func (r *repl) greet() {
	r.printf("%s\n", r.cli.say("欢迎使用 opsassist 智能运维助手！", "Welcome to opsassist."))
	h := r.conn.Hello()
	r.info(fmt.Sprintf(r.cli.say("已连接 %s · 对话 %s · 模型 %s · /help 查看命令", "connected to %s · conversation %s · model %s · /help for commands"),
		r.cfg.server, shortID(r.session), h.Model))
}

// execute runs one input line and reports whether the REPL should end.
func (r *repl) execute(ctx context.Context, line string) (quit bool) {
	if !strings.HasPrefix(line, "/") {
		r.chat(ctx, line)
		return false
	}
	cmd, arg, _ := strings.Cut(line[1:], " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "quit", "exit", "q":
		return true
	case "help", "?":
		r.printf("%s", wrapHelp(r.cli.say(replHelpZh, replHelp), r.width()))
	case "upload":
		if arg == "" {
			r.errorf("%s", r.cli.say("用法：/upload 路径", "usage: /upload PATH"))
			return false
		}
		r.upload(ctx, r.expandHome(arg))
	case "download":
		r.download(ctx, arg)
	case "sessions":
		r.sessions(ctx, arg)
	case "new":
		r.command(ctx, (*client.Conn).NewSession)
	case "switch", "delete":
		if arg == "" {
			r.errorf(r.cli.say("用法：/%s ID", "usage: /%s ID"), cmd)
			return false
		}
		before := r.session
		r.sessionCommand(ctx, cmd, arg)
		if cmd == "switch" && r.session != before {
			r.used = r.session
		}
	case "rename":
		r.rename(ctx, arg)
	case "export":
		r.export(ctx, arg)
	case "history":
		r.command(ctx, (*client.Conn).History)
	case "clear":
		r.clear(ctx)
	case "permissions":
		r.permissions(ctx, arg)
	case "tools":
		r.tools(ctx)
	case "tool":
		r.tool(ctx, arg)
	case "model", "models":
		r.command(ctx, func(c *client.Conn, ctx context.Context) (client.Result, error) { return c.Model(ctx, arg) })
	default:
		r.errorf(r.cli.say("没有命令 /%s；/help 列出所有命令", "unknown command /%s; /help lists the commands"), cmd)
	}
	return false
}

// chat sends a message and streams the answer, then handles the
// download offers it carried.
//
// Ctrl-C while the answer streams asks the server to stop the turn
// (CANCEL) and waits up to CLI.CancelWait for the server to end the
// answer, then says "cancelled"; a second Ctrl-C stops waiting at once
// (turnCancel).
func (r *repl) chat(ctx context.Context, text string) {
	var (
		offers []api.Offer
		tc     *turnCancel
	)
	begin := func(ctx context.Context) (context.Context, func()) {
		rctx, c, done := r.intr.turn(ctx, r.conn.Cancel, r.cli.cancelWait())
		tc = c
		return rctx, done
	}
	r.doWith(ctx, begin, func(ctx context.Context, c *client.Conn) error {
		r.used = c.SessionID() // asked in, even if the connection drops
		offers = offers[:0]
		tr := r.renderer()
		err := c.Chat(ctx, text, func(ev client.Event) {
			switch ev.Type {
			case client.EventDownloadOffer:
				offers = append(offers, ev.Offer)
			case client.EventPermission:
				r.askPermission(ctx, c, tr, ev.Permission)
				return
			case client.EventQuestion:
				r.askQuestion(ctx, c, tr, ev.Question)
				return
			}
			tr.handle(ev)
		})
		tr.endLine()
		if err == nil && tc.cancelSent() {
			r.info("cancelled")
		}
		return client.Undelivered(err) // the renderer has shown the server's ERROR
	})
	if r.conn != nil {
		r.used = r.session // a new conversation's id, once it has one
	}
	for _, o := range offers {
		r.offer(ctx, o)
	}
}

// offer remembers a DOWNLOAD_OFFER and, for RDT offers, downloads it: at
// once in auto mode (the default), after a yes in ask mode
// (OPSASSIST_DOWNLOAD=ask); /download TOKEN fetches it later either way.
func (r *repl) offer(ctx context.Context, o api.Offer) {
	if o.DownloadToken == "" {
		return
	}
	if r.offers == nil {
		r.offers = make(map[string]api.Offer)
	}
	r.offers[o.DownloadToken] = o
	if o.TransportMode != api.TransportRDT {
		return
	}
	if strings.EqualFold(r.cli.getenv(EnvDownload), "ask") && !r.confirm(ctx, fmt.Sprintf(r.cli.say("下载 %s（%s）？ [y/N] ", "download %s (%s)? [y/N] "), o.Filename, bytesize.Format(o.FileSize))) {
		r.info(fmt.Sprintf(r.cli.say("之后输入 /download %s 即可下载 %s", "type /download %s to fetch %s later"), o.DownloadToken, o.Filename))
		return
	}
	r.fetchOffer(ctx, o, "")
}

// confirm asks a yes/no question on the REPL's input; anything but y or
// yes (or no input) is no.
func (r *repl) confirm(ctx context.Context, question string) bool {
	if r.lines == nil {
		return false
	}
	if !r.outTTY {
		r.printf("%s\n", strings.TrimSpace(question))
	}
	answer, err := r.lines.readLine(ctx, question)
	if err != nil {
		return false
	}
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes" || a == "是"
}

// upload sends a file, drawing a progress bar on a terminal.
func (r *repl) upload(ctx context.Context, path string) {
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		pp := newProgressPrinter(r.out, r.outTTY, r.cli.now())
		done, err := c.Upload(ctx, path, pp.update)
		pp.finish()
		if err != nil {
			return err
		}
		r.printf("%s\n", r.cli.uploadText(done))
		return nil
	})
	r.used = r.session
}

// download handles /download TOKEN [PATH].
func (r *repl) download(ctx context.Context, arg string) {
	token, path, _ := strings.Cut(arg, " ")
	if token == "" {
		r.errorf("%s", r.cli.say("用法：/download 令牌 [路径]", "usage: /download TOKEN [PATH]"))
		return
	}
	o, ok := r.offers[token]
	if !ok {
		if strings.TrimSpace(path) == "" {
			// Without an offer there is no file name to save under.
			r.errorf("%s", fmt.Sprintf(r.cli.say(
				"本次连接中没有下载令牌 %q（令牌无效或已过期）——请使用这里显示过的下载令牌，或指定保存路径：/download TOKEN PATH",
				"no download offer %q in this REPL (unknown or expired token) — use the token of an offer shown here, or give a path: /download TOKEN PATH"), token))
			return
		}
		o = api.Offer{DownloadToken: token, TransportMode: api.TransportRDT}
	}
	r.fetchOffer(ctx, o, r.expandHome(strings.TrimSpace(path)))
}

// fetchOffer downloads an offered file to path (default: the offer's
// file name in OPSASSIST_DOWNLOAD_DIR) over RDT, falling back to this
// connection when UDP does not get through.
func (r *repl) fetchOffer(ctx context.Context, o api.Offer, path string) {
	if path == "" {
		p, err := client.OfferPath(r.cli.getenv(EnvDownloadDir), o)
		if err != nil {
			r.errorf(r.cli.say("%s；请指定保存路径：/download %s 路径", "%s; use /download %s PATH"), r.cli.friendly(err, r.cfg.server, r.cfg.debug), o.DownloadToken)
			return
		}
		path = p
	}
	req := client.DownloadRequest{Token: o.DownloadToken, Path: path, SHA256: o.SHA256, RDTAddr: client.RDTAddr("", o.RDTAddr, r.cfg.server)}
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		pp := &downloadPrinter{out: r.out, tty: r.outTTY, zh: r.cli.chinese()}
		dl := r.cli.downloader()
		dl.OnBusy = pp.busy
		res, err := dl.Fetch(ctx, req, func(context.Context) (*client.Conn, func(), error) { return c, func() {}, nil }, pp.update)
		pp.finish()
		if err != nil {
			return fmt.Errorf("download %s: %w", o.Filename, err)
		}
		r.printf("%s\n", pick(r.cli.chinese(), downloadLineZh(res), DownloadLine(res)))
		return nil
	})
}

// command runs a session, history or model command and prints its text.
func (r *repl) command(ctx context.Context, f func(*client.Conn, context.Context) (client.Result, error)) {
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		res, err := f(c, ctx)
		if err != nil {
			return err
		}
		r.noteSessions(res)
		r.printResult(res)
		return nil
	})
}

// printResult prints a command result: conversation and model lists
// rendered in the CLI's language (listText), the results the server
// words in both languages in the CLI's (resultText), else the server's
// text, or
// its data if it has none.
func (r *repl) printResult(res client.Result) {
	if t, ok := r.listText(res, ""); ok {
		r.printf("%s\n", t)
		return
	}
	if t, ok := r.cli.resultText(res); ok {
		if res.Kind == client.KindHistory {
			t = r.historyView(res)
		}
		r.printf("%s\n", t)
		return
	}
	switch {
	case strings.TrimSpace(res.Text) != "":
		r.printf("%s\n", strings.TrimRight(res.Text, "\n"))
	case len(res.Data) > 0:
		var v any
		if err := json.Unmarshal(res.Data, &v); err != nil {
			r.printf("%s\n", res.Data)
			return
		}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			r.printf("%s\n", res.Data)
			return
		}
		r.printf("%s\n", b)
	default:
		r.info("ok")
	}
}

// listText renders a session list (q: its search) or model list
// result in the CLI's language; ok is false for other results and for
// data it cannot read.
func (r *repl) listText(res client.Result, q string) (string, bool) {
	switch res.Kind {
	case client.KindSessionList:
		var list client.SessionList
		if res.Decode(&list) != nil {
			return "", false
		}
		return r.cli.sessionsText(list, q), true
	case client.KindModels:
		var m modelsResult
		if res.Decode(&m) != nil || len(m.Models) == 0 {
			return "", false
		}
		t := r.modelsText(m)
		if strings.Contains(res.Text, "Model switched to") {
			t = fmt.Sprintf(r.cli.say("已切换到模型 %s\n", "switched to model %s\n"), m.Current) + t
		}
		return t, true
	}
	return "", false
}

// do runs one request on the connection, reconnecting first if the
// connection has ended, and reconnecting after the request if it ended
// meanwhile. An interrupt cancels the request.
func (r *repl) do(ctx context.Context, f func(context.Context, *client.Conn) error) {
	r.doWith(ctx, r.intr.request, f)
}

// doWith is do with begin making the request's context (after the
// connection is ensured) and its release.
func (r *repl) doWith(ctx context.Context, begin func(context.Context) (context.Context, func()), f func(context.Context, *client.Conn) error) {
	if err := r.ensureConn(ctx); err != nil {
		r.fail(err)
		return
	}
	rctx, done := begin(ctx)
	err := f(rctx, r.conn)
	done()
	r.session = r.conn.SessionID()
	if cerr := r.conn.Err(); cerr != nil {
		failed := err != nil
		if err == nil {
			err = cerr
		}
		r.dropConn()
		r.lostConn(err)
		if ctx.Err() != nil {
			return
		}
		if err := r.reconnect(ctx); err != nil {
			r.fail(err)
			return
		}
		if failed {
			r.info(r.cli.say("上一个请求可能没有完成，需要的话请再发一次", "the last request may not have completed; repeat it if needed"))
		}
		return
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled) && ctx.Err() == nil:
		r.info("cancelled")
	default:
		r.fail(err)
	}
}

// ensureConn reconnects if the connection has ended since the last
// request.
func (r *repl) ensureConn(ctx context.Context) error {
	if r.conn != nil && r.conn.Err() == nil {
		return nil
	}
	if r.conn != nil {
		cerr := r.conn.Err()
		r.dropConn()
		r.lostConn(cerr)
	}
	return r.reconnect(ctx)
}

// dropConn closes the ended connection and prints its last notices (such
// as the server's shutting_down ERROR), so they appear before anything
// from the next connection. Close waits for the connection's reader
// goroutine, so no notice of it can arrive afterwards.
func (r *repl) dropConn() {
	if err := r.conn.Close(); err != nil {
		r.cli.logger().Debug("closing lost connection", zap.Error(err))
	}
	r.conn = nil
	r.flushNotices()
}

// dialFunc is Dial or a retrying variant of it.
type dialFunc func(ctx context.Context, addr string, opts client.Options) (*client.Conn, error)

// connect dials with opts, resuming r.session. If the server does not
// know that conversation (say, after a restart that lost it), connect
// says so once and dials again at once for a new conversation.
func (r *repl) connect(ctx context.Context, opts client.Options, dial dialFunc) error {
	opts.SessionID = r.session
	conn, err := dialSession(ctx, dial, r.cfg.server, opts)
	if errors.Is(err, client.ErrUnknownSession) {
		if opts.SessionID == r.used {
			r.info(fmt.Sprintf(r.cli.say("没有找到对话 %s，开始新对话", "conversation %s not found; starting a new one"), shortID(opts.SessionID)))
		}
		r.session, opts.SessionID = "", ""
		conn, err = dial(ctx, r.cfg.server, opts)
	}
	if err != nil {
		return err
	}
	r.conn, r.session = conn, conn.SessionID()
	r.shuttingDown = false // the last connection's
	return nil
}

// reconnect dials again with backoff, resuming the current session. An
// interrupt stops it.
func (r *repl) reconnect(ctx context.Context) error {
	rctx, done := r.intr.request(ctx)
	defer done()
	opts := r.opts
	rl := &retryLine{r: r}
	opts.OnRetry = rl.failed
	quiet := r.quietReconnect
	r.quietReconnect = false
	if !quiet {
		r.info(fmt.Sprintf(r.cli.say("正在重新连接 %s…", "reconnecting to %s…"), r.cfg.server))
	}
	attempts := r.cli.reconnectAttempts()
	err := r.connect(rctx, opts, func(ctx context.Context, addr string, opts client.Options) (*client.Conn, error) {
		return client.DialRetry(ctx, addr, opts, attempts)
	})
	rl.clear()
	if err != nil {
		return fmt.Errorf("reconnecting: %w", err)
	}
	if !quiet {
		r.info(fmt.Sprintf(r.cli.say("已重新连接 · 对话 %s", "reconnected · conversation %s"), shortID(r.session)))
	}
	return nil
}

// notice is client.Options.OnUnsolicited: it queues the event for the next
// prompt, or for dropConn if the connection ends first, dropping it if
// the queue is full.
func (r *repl) notice(ev client.Event) {
	select {
	case r.notices <- ev:
	default:
		r.cli.logger().Debug("notice queue full, dropping notice", zap.String("event", string(ev.Type)))
	}
}

// lostConn says why the connection ended (err): a server shutting down
// as information, not as the user's error; anything else with fail.
func (r *repl) lostConn(err error) {
	if r.shuttingDown || errors.Is(err, &client.ServerError{Code: api.CodeShuttingDown}) {
		r.shuttingDown = false
		r.info(fmt.Sprintf(r.cli.say("服务器 %s 正在关闭", "the server at %s is shutting down"), r.cfg.server))
		return
	}
	r.fail(err)
}

// flushNotices prints the queued unsolicited events but the server's
// shutdown goodbye, which it notes in r.shuttingDown: the connection's
// end says it (lostConn, watchIdle), as information.
func (r *repl) flushNotices() {
	tr := r.renderer()
	for {
		select {
		case ev := <-r.notices:
			if isShutdown(ev) {
				r.shuttingDown = true
				continue
			}
			tr.handle(ev)
		default:
			tr.endLine()
			return
		}
	}
}

// renderer returns a text renderer for the REPL's streams.
func (r *repl) renderer() *textRenderer {
	tr := &textRenderer{
		out: r.out, outTTY: r.outTTY,
		status: r.out, statTTY: r.outTTY && r.cli.colour(),
		offers: r.out, zh: r.cli.chinese(),
		errw: r.errw, errTTY: r.errTTY && r.cli.colour(),
		errText: func(se *client.ServerError) string {
			return r.cli.say("错误：", "error: ") + modelHint(r.cli.friendly(se, r.cfg.server, r.cfg.debug), true)
		},
	}
	if render, colour := r.cli.markdown(r.cfg, r.outTTY); render {
		tr.md = newMDRenderer(r.out, colour)
	}
	return tr
}

// expandHome replaces a leading "~/" with $HOME.
func (r *repl) expandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home := r.cli.getenv("HOME"); home != "" {
			return filepath.Join(home, rest)
		}
	}
	return path
}

func (r *repl) printf(format string, args ...any) {
	r.endLive()
	r.cli.printf(r.out, format, args...)
}

// showLive shows line as the live line, rewritten in place by the next
// showLive and cleared by endLive (before any other output).
func (r *repl) showLive(line string) {
	r.cli.printf(r.out, "\r\x1b[2K%s", line)
	r.live = true
}

// endLive clears the live line, if one is showing.
func (r *repl) endLive() {
	if r.live {
		r.live = false
		r.cli.printf(r.out, "\r\x1b[2K")
	}
}

// info prints a dimmed informational line.
func (r *repl) info(s string) {
	r.printf("%s\n", style(r.outTTY && r.cli.colour(), ansiDim, s))
}

// width is the terminal's width in columns when out is one, else 0
// (output for a pipe or a file is not wrapped).
func (r *repl) width() int {
	if !r.outTTY || r.termWidth == nil {
		return 0
	}
	return r.termWidth()
}

// errorf prints an error line, red on a terminal.
func (r *repl) errorf(format string, args ...any) {
	r.endLive()
	r.cli.printf(r.errw, "%s\n", style(r.errTTY && r.cli.colour(), ansiRed, r.cli.say("错误：", "error: ")+fmt.Sprintf(format, args...)))
}

// fail prints err as an error line in the user's words (CLI.friendly).
func (r *repl) fail(err error) {
	var ie *infoError
	if errors.As(err, &ie) {
		r.info(ie.text)
		return
	}
	var he *hintedError
	if errors.As(err, &he) {
		r.errorf("%s%s", r.cli.friendly(he.err, r.cfg.server, r.cfg.debug), he.hint)
		return
	}
	r.errorf("%s", r.cli.friendly(err, r.cfg.server, r.cfg.debug))
}

// shortID abbreviates a session id for display.
func shortID(id string) string {
	if id == "" {
		return "(new)"
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
