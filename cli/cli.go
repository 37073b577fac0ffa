package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/term"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/bytesize"
	"opsassist/nplt"
)

// DefaultServer is the server address used when neither --server nor
// OPSASSIST_SERVER is set.
const DefaultServer = "127.0.0.1:9999"

// Environment variables read by the command line.
const (
	EnvServer  = "OPSASSIST_SERVER"
	EnvToken   = "OPSASSIST_TOKEN"
	EnvSession = "OPSASSIST_SESSION"
)

// Exit codes returned by the CLI's Run methods.
const (
	// ExitOK means success.
	ExitOK = 0
	// ExitError means a runtime error: a server ERROR, a failed
	// connection, an unreadable file.
	ExitError = 1
	// ExitUsage means the command line was wrong.
	ExitUsage = 2
)

// defaultReconnectAttempts is CLI.ReconnectAttempts' default.
const defaultReconnectAttempts = 10

// CLI runs the opsassist command line. It writes only to its writers and
// reads the environment only through Getenv, so a test can run it
// in-process. The zero value is usable; each field's comment gives its
// default.
type CLI struct {
	// Stdin is the REPL's input. Default: empty input.
	Stdin io.Reader
	// Stdout receives answers, results and the REPL's output. Default:
	// io.Discard.
	Stdout io.Writer
	// Stderr receives errors, upload progress and, with -v, status lines.
	// Default: io.Discard.
	Stderr io.Writer
	// Getenv reads LC_ALL, LC_MESSAGES and LANG (zh*: messages in
	// Chinese), OPSASSIST_SERVER, OPSASSIST_TOOLS_HTTP, OPSASSIST_TOKEN, OPSASSIST_SESSION,
	// OPSASSIST_TLS, OPSASSIST_TLS_CA, OPSASSIST_INSECURE, OPSASSIST_RENDER,
	// NO_COLOR, XDG_STATE_HOME and HOME. Default: an empty environment.
	Getenv func(string) string
	// Interrupts delivers Ctrl-C. In the REPL an interrupt cancels the
	// request in progress — during a chat answer the first one asks the
	// server to stop the turn (CANCEL) and waits up to CancelWait for the
	// answer's end, a second stops waiting; between requests it ends the
	// REPL when input is not a terminal, and is ignored with line
	// editing (which handles Ctrl-C at the prompt itself). In ask the
	// first interrupt during the answer sends CANCEL and waits likewise,
	// a second exits; otherwise, and in upload, it cancels the command.
	// Default: none.
	Interrupts <-chan os.Signal
	// Logger receives the client's debug logs. Default: zap.NewNop().
	Logger *zap.Logger
	// Now is the clock used for upload rates. Default: time.Now.
	Now func() time.Time
	// TerminalSession names the terminal's login session, so a reused
	// tty name (a new terminal on /dev/pts/7) does not resume the old
	// terminal's conversation; "" when unknown. Default: on Linux the
	// session leader (getsid(0)) and its start time from /proc; elsewhere
	// "" (the tty name alone).
	TerminalSession func() string
	// ReconnectAttempts is how often the REPL tries to reconnect after
	// losing the connection. Default: 10.
	ReconnectAttempts int
	// Backoff is the REPL's reconnection schedule. Default: 200ms doubling
	// to 5s.
	Backoff client.Backoff
	// FirstPacketTimeout is how long a download waits for the first RDT
	// packet before falling back to NPLT. Default 3s.
	FirstPacketTimeout time.Duration
	// CancelWait is how long, after a Ctrl-C sent CANCEL, the REPL and
	// ask wait for the server to end the cancelled answer before they
	// stop waiting. Default 3s.
	CancelWait time.Duration
}

// cancelWait returns CancelWait or its default.
func (c *CLI) cancelWait() time.Duration {
	if c.CancelWait > 0 {
		return c.CancelWait
	}
	return defaultCancelWait
}

// cliConfig is the parsed command line.
type cliConfig struct {
	server  string
	token   string
	tls     tlsSettings
	session string // conversation to resume; "" starts a new one
	http    string // the server's HTTP listener for tools, tool, /tools and /tool; "": NPLT
	verbose bool
	json    bool
	render  renderFlag // answers: auto (rendered on a terminal), always or never
	debug   bool       // print the raw error after each friendly message
	yes     bool       // REPL: /clear and /delete do not ask
}

// Run runs the command line args (without the program name) and returns
// the exit code.
func (c *CLI) Run(ctx context.Context, args []string) int {
	cfg := c.baseConfig()
	fs := c.flagSet("opsassist", &cfg)
	fs.BoolVar(&cfg.json, "json", false, "")
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError(fs, err)
	}
	rest := fs.Args()
	if *version {
		return c.runVersion()
	}
	if len(rest) == 0 {
		return c.runREPL(ctx, cfg, nil)
	}
	switch rest[0] {
	case "ask":
		return c.runAsk(ctx, cfg, rest[1:])
	case "upload":
		return c.runUpload(ctx, cfg, rest[1:])
	case "download":
		return c.runDownload(ctx, cfg, rest[1:])
	case "eval":
		return c.runEval(ctx, rest[1:])
	case "eval-retrieval":
		return c.runEvalRetrieval(ctx, rest[1:])
	case "audit":
		return c.runAudit(ctx, rest[1:])
	case "tools":
		return c.runTools(ctx, cfg, rest[1:])
	case "export":
		return c.runExport(ctx, cfg, rest[1:])
	case "tool":
		return c.runTool(ctx, cfg, rest[1:])
	case "sessions":
		return c.runSessions(ctx, cfg, rest[1:])
	case "repl", "chat":
		return c.runREPL(ctx, cfg, rest[1:])
	case "help":
		return c.runHelp(rest[1:])
	case "version":
		return c.runVersion()
	case "completion":
		return c.runCompletion(rest[1:])
	case completeCommand:
		return c.runComplete(ctx, rest[1:])
	}
	return c.usageError("opsassist", c.say(fmt.Sprintf("没有命令 %q；命令有：%s", rest[0], commandNames()), fmt.Sprintf("unknown command %q; the commands are: %s", rest[0], commandNames())))
}

// RunAsk runs "opsassist ask" with args, the words after "ask" (flags
// allowed anywhere), and returns the exit code.
func (c *CLI) RunAsk(ctx context.Context, args []string) int {
	return c.runAsk(ctx, c.baseConfig(), args)
}

// RunUpload runs "opsassist upload" with args, the words after "upload",
// and returns the exit code.
func (c *CLI) RunUpload(ctx context.Context, args []string) int {
	return c.runUpload(ctx, c.baseConfig(), args)
}

// RunREPL runs the interactive chat with args, the global flags, and
// returns the exit code.
func (c *CLI) RunREPL(ctx context.Context, args []string) int {
	return c.runREPL(ctx, c.baseConfig(), args)
}

// baseConfig is the configuration before flags: defaults and environment.
func (c *CLI) baseConfig() cliConfig {
	cfg := cliConfig{server: DefaultServer, token: c.getenv(EnvToken), session: c.getenv(EnvSession),
		tls: tlsSettings{on: envBool(c.getenv(EnvTLS)), ca: c.getenv(EnvTLSCA), insecure: envBool(c.getenv(EnvInsecure))}}
	if s := c.getenv(EnvServer); s != "" {
		cfg.server = s
	}
	if s := c.getenv(EnvToolsHTTP); s != "" {
		cfg.http = s
	}
	if err := cfg.render.Set(c.getenv(EnvRender)); err != nil {
		cfg.render.mode = renderAuto // an unknown value in the environment: the default
	}
	return cfg
}

// flagSet returns a FlagSet with the global flags bound to cfg, keeping
// cfg's values as defaults so flags given before the command persist.
func (c *CLI) flagSet(name string, cfg *cliConfig) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	fs.Usage = func() {} // flagError prints the help or the usage
	fs.StringVar(&cfg.server, "server", cfg.server, "")
	fs.StringVar(&cfg.token, "token", cfg.token, "")
	fs.StringVar(&cfg.session, "session", cfg.session, "")
	fs.StringVar(&cfg.http, "http", cfg.http, "")
	fs.BoolVar(&cfg.tls.on, "tls", cfg.tls.on, "")
	fs.StringVar(&cfg.tls.ca, "tls-ca", cfg.tls.ca, "")
	fs.BoolVar(&cfg.tls.insecure, "insecure", cfg.tls.insecure, "")
	fs.BoolVar(&cfg.verbose, "v", cfg.verbose, "")
	fs.Var(&cfg.render, "render", "")
	fs.BoolVar(&cfg.debug, "debug", cfg.debug, "")
	return fs
}

// parseArgs parses args with fs, allowing flags between positional
// arguments; "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// runAsk asks one question and prints the answer.
func (c *CLI) runAsk(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("ask", &cfg)
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	yes := fs.Bool("yes", false, "")
	model := fs.String("model", "", "")
	name := fs.String("name", stdinName, "")
	fresh := fs.Bool("new", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	question := strings.TrimSpace(strings.Join(pos, " "))
	fromStdin := len(pos) == 1 && pos[0] == "-"
	if fromStdin {
		if question, err = c.readQuestion(ctx); err != nil {
			c.printf(c.stderr(), "opsassist: %v\n", err)
			return ExitError
		}
	}
	if question == "" {
		return c.usageError("ask", c.say("ask 需要一个问题（或用 \"-\" 从标准输入读取）", "ask needs a question (or \"-\" to read it from stdin)"))
	}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	intr := &interruptRouter{idle: cancelAll}
	stop := watchInterrupts(c.Interrupts, intr.interrupt)
	defer stop()
	var piped []byte // read before dialling: a slow pipe holds no idle connection
	if !fromStdin && c.stdinPiped() {
		var ok bool
		if piped, ok = c.readPiped(ctx, question); !ok {
			return ExitError
		}
	}
	conn, err := c.dialDefault(ctx, cfg, *fresh)
	if err != nil {
		c.dialError(cfg, err)
		return ExitError
	}
	defer c.closeConn(conn)
	defer c.rememberConn(cfg, conn)
	if *model != "" && !c.askModel(ctx, conn, *model, question) {
		return ExitError
	}
	if len(piped) > 0 && !c.attachStdin(ctx, conn, *name, piped, question, cfg.json) {
		return ExitError
	}

	var (
		h    client.EventHandler
		werr func() error
	)
	if cfg.json {
		jl := newJSONLines(c.stdout())
		h, werr = jl.handle, jl.error
	} else {
		errTTY := isTerminal(c.stderr()) && c.colour()
		tr := &textRenderer{out: c.stdout(), offers: c.stderr(), errw: c.stderr(), errTTY: errTTY, zh: c.chinese(),
			errText: func(se *client.ServerError) string {
				return "opsassist: " + modelHint(c.friendly(se, cfg.server, cfg.debug), false)
			},
			offerText: func(o api.Offer) string { return c.askOfferLine(o, cfg.server, conn.Hello().RDTAddr) }}
		if render, colour := c.markdown(cfg, isTerminal(c.Stdout)); render {
			tr.md = newMDRenderer(c.stdout(), colour)
		}
		if cfg.verbose {
			tr.status, tr.statTTY = c.stderr(), errTTY
		}
		// endLine also prints the rendered answer's tail when the reply
		// ended without END (a dropped connection, an interrupt).
		h, werr = tr.handle, func() error { tr.endLine(); return tr.err }
	}
	tctx, tc, done := intr.turn(ctx, conn.Cancel, c.cancelWait())
	aa := c.newAskAnswerer(tctx, conn, *yes)
	aa.friendly = func(err error) string { return c.friendly(err, cfg.server, cfg.debug) }
	err = conn.Chat(tctx, question, func(ev client.Event) { h(ev); aa.handle(ev); aa.question(ev) })
	done()
	if werr() != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", werr())
		return ExitError
	}
	if id := conn.SessionID(); cfg.verbose && id != "" {
		c.printf(c.stderr(), "session: %s\n", id)
	}
	if err == nil && tc.cancelSent() {
		c.printf(c.stderr(), "opsassist: cancelled\n")
		return ExitError // the answer is cut short
	}
	if err != nil {
		if err := client.Undelivered(err); err != nil {
			c.printf(c.stderr(), "opsassist: %s\n", c.friendly(err, cfg.server, cfg.debug))
		}
		return ExitError
	}
	return ExitOK
}

// runUpload uploads files and prints one confirmation line per file.
func (c *CLI) runUpload(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("upload", &cfg)
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	fresh := fs.Bool("new", false, "")
	files, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(files) == 0 {
		return c.usageError("upload", c.say("upload 需要至少一个文件", "upload needs a file"))
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	conn, err := c.dialDefault(ctx, cfg, *fresh)
	if err != nil {
		c.dialError(cfg, err)
		return ExitError
	}
	defer c.closeConn(conn)
	defer c.rememberConn(cfg, conn)
	jl := newJSONLines(c.stdout())
	for _, path := range files {
		pp := newProgressPrinter(c.stderr(), !cfg.json && isTerminal(c.stderr()), c.now())
		done, err := conn.Upload(ctx, path, pp.update)
		pp.finish()
		if err != nil {
			if _, ok := errors.AsType[*iofs.PathError](err); ok {
				// The message names the file already.
				c.printf(c.stderr(), "opsassist: %s\n", c.friendly(err, cfg.server, cfg.debug))
			} else {
				c.printf(c.stderr(), "opsassist: %s %s: %s\n", c.say("上传", "upload"), path, c.friendly(err, cfg.server, cfg.debug))
			}
			return ExitError
		}
		if cfg.json {
			jl.encode(done)
			err = jl.error()
		} else {
			_, err = fmt.Fprintf(c.stdout(), "%s\n", UploadLine(done))
		}
		if err != nil {
			// A script reading the file ids would miss this one.
			c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
			return ExitError
		}
	}
	return ExitOK
}

// dialError reports a failed Dial of a one-shot command.
func (c *CLI) dialError(cfg cliConfig, err error) {
	c.printf(c.stderr(), "opsassist: %s\n", c.friendly(err, cfg.server, cfg.debug))
	if errors.Is(err, client.ErrUnknownSession) {
		c.printf(c.stderr(), "opsassist: %s\n", fmt.Sprintf(c.say(
			"对话 %q：不带 --session（并清空 %s）运行即可开始新对话",
			"conversation %q: run without --session (and %s) to start a new conversation"), cfg.session, EnvSession))
	}
}

// closeConn closes a one-shot command's connection. The command's result
// is already out, so a failure is only logged.
func (c *CLI) closeConn(conn *client.Conn) {
	if err := conn.Close(); err != nil {
		c.logger().Debug("closing connection", zap.Error(err))
	}
}

// options builds connection options from the configuration. A TLS
// setting that cannot be loaded (an unreadable --tls-ca) makes every
// dial fail with that error.
func (c *CLI) options(cfg cliConfig) client.Options {
	o := client.Options{Token: cfg.token, SessionID: strings.TrimSpace(cfg.session), Logger: c.Logger, Backoff: c.Backoff}
	tc, err := cfg.tls.config()
	if err != nil {
		o.Dial = failingDial(err)
	}
	o.TLS = tc
	return o
}

// interruptible returns a context that Interrupts cancels.
func (c *CLI) interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := watchInterrupts(c.Interrupts, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

func (c *CLI) stdout() io.Writer {
	if c.Stdout == nil {
		return io.Discard
	}
	return c.Stdout
}

func (c *CLI) stderr() io.Writer {
	if c.Stderr == nil {
		return io.Discard
	}
	return c.Stderr
}

func (c *CLI) stdin() io.Reader {
	if c.Stdin == nil {
		return strings.NewReader("")
	}
	return c.Stdin
}

func (c *CLI) getenv(key string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(key)
}

func (c *CLI) now() func() time.Time {
	if c.Now == nil {
		return time.Now
	}
	return c.Now
}

func (c *CLI) logger() *zap.Logger {
	if c.Logger == nil {
		return zap.NewNop()
	}
	return c.Logger
}

func (c *CLI) reconnectAttempts() int {
	if c.ReconnectAttempts <= 0 {
		return defaultReconnectAttempts
	}
	return c.ReconnectAttempts
}

// printf writes to w; output errors on the CLI's own streams have nowhere
// better to go, so they are dropped here on purpose.
func (c *CLI) printf(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}

// isTerminal reports whether v is a file attached to a terminal.
func isTerminal(v any) bool {
	f, ok := v.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// jsonLines writes values as JSON lines, keeping the first write error.
type jsonLines struct {
	enc *json.Encoder
	err error
}

func newJSONLines(w io.Writer) *jsonLines {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &jsonLines{enc: enc}
}

// handle is an EventHandler printing each event as a JSON line.
func (j *jsonLines) handle(ev client.Event) { j.encode(ev) }

func (j *jsonLines) encode(v any) {
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
}

func (j *jsonLines) error() error { return j.err }

// UploadLine formats an upload confirmation as "opsassist upload"
// prints it on stdout: in English in every locale, for scripts (which
// better read --json).
func UploadLine(d nplt.UploadDonePayload) string {
	return fmt.Sprintf("uploaded %s (%s): file_id=%s sha256=%s session=%s",
		d.Filename, bytesize.Format(d.Size), d.FileID, d.SHA256, d.SessionID)
}

// uploadText is an upload confirmation for people (the REPL's /upload,
// ask's stdin upload on stderr): in the CLI's language, its ids as
// UploadLine names them.
func (c *CLI) uploadText(d nplt.UploadDonePayload) string {
	if !c.chinese() {
		return UploadLine(d)
	}
	return fmt.Sprintf("已上传 %s（%s）：file_id=%s sha256=%s 对话 %s",
		d.Filename, bytesize.Format(d.Size), d.FileID, d.SHA256, d.SessionID)
}

// IndexedLine renders an UPLOAD_INDEXED notice.
func IndexedLine(p nplt.UploadIndexedPayload) string {
	if p.Indexed {
		return fmt.Sprintf("🔎 已建立索引，可以搜索 Indexed for search: %s", p.Filename)
	}
	return fmt.Sprintf("⚠️ 未建立索引 Not indexed: %s (%s)", p.Filename, p.Error)
}

// indexedLine is an UPLOAD_INDEXED notice in the CLI's language: Chinese
// when zh.
func indexedLine(zh bool, p nplt.UploadIndexedPayload) string {
	if p.Indexed {
		return fmt.Sprintf(pick(zh, "🔎 已建立索引，可以搜索：%s", "🔎 indexed for search: %s"), p.Filename)
	}
	return fmt.Sprintf(pick(zh, "⚠️ 未建立索引：%s（%s）", "⚠️ not indexed: %s (%s)"), p.Filename, p.Error)
}

// downloader returns the Downloader for the download command and the
// REPL's offers.
func (c *CLI) downloader() *client.Downloader {
	return &client.Downloader{Logger: c.logger(), FirstPacketTimeout: c.FirstPacketTimeout}
}
