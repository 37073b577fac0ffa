package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/internal/runecut"
	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// Executor is the command_executor tool. It is safe for concurrent use.
type Executor struct {
	cfg       Config
	workspace string // absolute, symbolic links resolved
	spec      tools.Spec
	log       *zap.Logger
	// approved checks the paths of approved calls: Config.Paths, also
	// outside the roots (pathguard.Validator.Approved).
	approved *pathguard.Validator
	// onStart, if set, is told each child's pid (tests).
	onStart func(pid int)
	// slots bounds concurrent commands.
	slots chan struct{}
}

var _ tools.Tool = (*Executor)(nil)

// New returns the tool, creating the workspace if needed.
func New(cfg Config) (*Executor, error) {
	if cfg.Paths == nil {
		return nil, errors.New("command: Config.Paths is required")
	}
	if cfg.Workspace == "" {
		cfg.Workspace = DefaultWorkspace
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = DefaultMaxTimeout
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = DefaultTimeout
	}
	cfg.DefaultTimeout = min(cfg.DefaultTimeout, cfg.MaxTimeout)
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 4
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if err := os.MkdirAll(cfg.Workspace, 0o750); err != nil {
		return nil, fmt.Errorf("command: creating workspace: %w", err)
	}
	ws, err := filepath.Abs(cfg.Workspace)
	if err == nil {
		ws, err = filepath.EvalSymlinks(ws)
	}
	if err != nil {
		return nil, fmt.Errorf("command: workspace: %w", err)
	}
	e := &Executor{cfg: cfg, workspace: ws, log: cfg.Logger.Named("command_executor"), slots: make(chan struct{}, cfg.MaxConcurrent),
		approved: cfg.Paths.Approved()}
	e.spec = e.buildSpec()
	return e, nil
}

// Spec describes the tool. Spec.Timeout is MaxTimeout plus a few seconds:
// the tool enforces each call's own timeout and the runtime's bound only
// catches a tool that fails to.
func (e *Executor) Spec() tools.Spec { return e.spec }

func (e *Executor) buildSpec() tools.Spec {
	list := strings.Join(e.cfg.Commands.Names(), ", ")
	maxSec := max(1, int(e.cfg.MaxTimeout/time.Second))
	desc := "the command's name alone (its arguments go in args), one of: " + list
	ask := e.cfg.Commands.Ask()
	if len(ask) > 0 {
		desc += "; or, run only after the user confirms the call: " + strings.Join(ask, ", ")
	}
	cmdDesc, _ := json.Marshal(desc)
	argsDesc, _ := json.Marshal("arguments, passed as they are: no shell, so no globs, pipes, redirection or variables; file paths outside the allowed directories need the user's confirmation, secrets are always refused")
	timeoutDesc, _ := json.Marshal(fmt.Sprintf("timeout in seconds, default %d", int(e.cfg.DefaultTimeout/time.Second)))
	schema := fmt.Sprintf(`{"type":"object","properties":{`+
		`"command":{"type":"string","description":%s},`+
		`"args":{"type":"array","items":{"type":"string"},"description":%s},`+
		`"timeout":{"type":"integer","minimum":1,"maximum":%d,"description":%s}},`+
		`"required":["command"],"additionalProperties":false}`,
		cmdDesc, argsDesc, maxSec, timeoutDesc)
	summary := api.Text{Zh: "安全地执行白名单系统命令（不经过 shell）。", En: "Run one whitelisted system command and return its exit code, stdout and stderr."}
	return tools.Spec{
		Name:    "command_executor",
		Summary: summary,
		Description: summary.Both() + "\n" +
			"支持的命令 (commands): " + list + "\n" +
			askDesc(ask) +
			e.uses() +
			e.psDesc() +
			"关键词：执行、运行、命令、run, execute, command",
		Parameters: json.RawMessage(schema),
		Risk:       tools.RiskSensitive,
		Timeout:    e.cfg.MaxTimeout + specTimeoutHeadroom,
	}
}

// askDesc is the description's line of the ask tier, or "".
func askDesc(ask []string) string {
	if len(ask) == 0 {
		return ""
	}
	return "需用户确认后执行 (run after the user confirms): " + strings.Join(ask, ", ") + "\n"
}

// uses is the description's line of what the whitelisted default
// commands are for, naming only those whitelisted, or "" if none is.
func (e *Executor) uses() string {
	var parts []string
	for _, u := range []struct{ what, names string }{
		{"列出文件", "ls"}, {"查看文件内容", "cat head tail"}, {"搜索文本", "grep"}, {"查看进程", "ps"}, {"磁盘与内存", "df free"},
	} {
		names := slices.DeleteFunc(strings.Fields(u.names), func(n string) bool { return !e.cfg.Commands.Allowed(n) })
		if len(names) > 0 {
			parts = append(parts, u.what+" ("+strings.Join(names, "/")+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "适用场景：" + strings.Join(parts, "、") + "。\n"
}

// psDesc is the description's line of how ps runs, or "" when ps is
// not whitelisted: command names by default; full command lines only
// once the user confirms (Tiers.Classify).
func (e *Executor) psDesc() string {
	if !e.cfg.Commands.Allowed("ps") {
		return ""
	}
	line := "ps " + strings.Join(psDefaultArgs, " ")
	return "进程列表用 " + line + "；显示完整命令行（ps aux、ps -ef、-o args）需用户确认。" +
		"List processes with " + line + "; full command lines (ps aux, ps -ef, -o args) run only after the user confirms.\n"
}

// args are the tool's arguments.
type args struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Timeout int      `json:"timeout"`
}

// Run checks the command and its arguments, runs it and returns its
// Output. A command that ran and failed yields the Output and an
// *ExitError; a refused call yields no output and an error wrapping
// ErrNotAllowed, ErrNeedsApproval, ErrArgsInCommand, ErrUnsafeArgument,
// ErrOptionDenied or a pathguard error.
//
// An approved call (tools.Call.Approved) may also run an ask-tier
// command and name files outside the allowed roots; denied paths and
// commands stay refused whatever the approval.
func (e *Executor) Run(ctx context.Context, call *tools.Call, raw json.RawMessage) (any, error) {
	var a args
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("command: bad arguments: %w", err)
	}
	c, err := e.check(a.Command, a.Args, call != nil && call.Approved)
	if err != nil {
		e.log.Warn("command refused", zap.String("command", tools.RedactString(a.Command)), argsField(a.Args), errField(err))
		return nil, refusalCode(err)
	}
	select {
	case e.slots <- struct{}{}:
		defer func() { <-e.slots }()
	case <-ctx.Done():
		return nil, fmt.Errorf("command: waiting for a free slot (%d commands already running): %w", cap(e.slots), ctx.Err())
	}
	// Files are pinned only once a slot is free, so waiting calls hold no
	// descriptors.
	p, err := e.pin(a.Command, a.Args, c)
	if err != nil {
		e.log.Warn("command refused", zap.String("command", tools.RedactString(a.Command)), argsField(a.Args), errField(err))
		return nil, refusalCode(err)
	}
	defer p.close()
	out, err := e.run(ctx, c.path, p, e.timeout(a.Timeout))
	if out == nil {
		return nil, err
	}
	return *out, err
}

// timeout returns the bound for a call asking for sec seconds.
func (e *Executor) timeout(sec int) time.Duration {
	if sec <= 0 {
		return e.cfg.DefaultTimeout
	}
	return min(time.Duration(sec)*time.Second, e.cfg.MaxTimeout)
}

// checked is a call that passed check: what pin and run need.
type checked struct {
	// path is the command's executable.
	path string
	// run are the arguments as the command is to run them.
	run []string
	// items are the arguments that name files.
	items []classified
	// deref is the option that makes the command follow the pinned
	// descriptors' links (optSpec.derefPinned), or "".
	deref string
	// paths checks and pins the files: Config.Paths, or its Approved
	// form for an approved call.
	paths *pathguard.Validator
}

// check validates a call against the command's spec, read once. Every
// file argument is checked here; those the command is known to open
// (argFile) are pinned by pin before the command starts.
func (e *Executor) check(name string, argv []string, approved bool) (checked, error) {
	if err := e.argsInCommand(name, argv); err != nil {
		return checked{}, err
	}
	paths := e.cfg.Paths
	if approved {
		paths = e.approved
	}
	for _, a := range argv {
		if strings.ContainsAny(a, unsafeChars) {
			return checked{}, fmt.Errorf("%w: %q", ErrUnsafeArgument, a)
		}
	}
	run, items, deref, err := e.parse(name, argv, approved)
	if err != nil {
		return checked{}, err
	}
	for _, it := range items {
		switch {
		case it.arg == "" || it.arg == "-":
			// Empty names no file; "-" is standard input, /dev/null here.
		case it.kind == argFile, it.kind == argMaybeFile && e.looksLikePath(it.arg):
			if _, err := paths.Check(e.absolute(it.arg)); err != nil {
				return checked{}, asWritten(err, it.arg)
			}
		}
	}
	path, err := lookPath(name)
	if err != nil {
		return checked{}, err
	}
	return checked{path: path, run: run, items: items, deref: deref, paths: paths}, nil
}

// parse places the command in its tier and checks its arguments against
// the whitelist's tables (optSpecFor) or the ask tier's (askSpecs). An
// ask-tier command is refused unless approved.
func (e *Executor) parse(name string, argv []string, approved bool) (run []string, items []classified, deref string, err error) {
	tier, entry, why := e.cfg.Commands.Classify(name, argv)
	switch tier {
	case TierAllow:
		spec := optSpecFor(name)
		run, items, err = spec.parse(argv)
		return run, items, spec.derefPinned, err
	case TierAsk:
		if entry == PSEntry && name == "ps" {
			spec := optSpecFor(name)
			run, items, err = spec.parse(argv)
			if err == nil && !approved {
				err = fmt.Errorf("%w: ps %s runs only once the user has confirmed it: %s", ErrNeedsApproval, strings.Join(argv, " "), psWhyArgs)
			}
			return run, items, spec.derefPinned, err
		}
		spec := askSpecs[entry]
		run, items, err = spec.parse(entry, argv)
		if err == nil && !approved {
			err = fmt.Errorf("%w: %s runs only once the user has confirmed it", ErrNeedsApproval, entry)
		}
		return run, items, spec.deref, err
	}
	return nil, nil, "", fmt.Errorf("%w: %s", ErrNotAllowed, why)
}

// refusalCode marks a refusal with the failure code the user is told
// (tools.UserTextAbout): a path that is not a regular file, a path that
// may hold secrets, a command not run, a file that does not exist or
// cannot be accessed (tools.FileErrorCode). Other refusals keep the code
// their class gives.
func refusalCode(err error) error {
	switch {
	case errors.Is(err, pathguard.ErrNotRegular):
		return tools.WithCode(tools.CodeNotRegular, err)
	case errors.Is(err, pathguard.ErrForbidden):
		return tools.WithCode(tools.CodeSecretFile, err)
	case errors.Is(err, ErrNotAllowed):
		return tools.WithCode(tools.CodeCommandNotAllowed, err)
	}
	if c := tools.FileErrorCode(err); c != "" {
		// A file argument that does not exist, cannot be read, is a
		// directory: said to the user naming it, not as a raw reason.
		return tools.WithCode(c, err)
	}
	return err
}

// asWritten makes a path refusal name the argument as the caller wrote
// it rather than the absolute path checked.
func asWritten(err error, arg string) error {
	var pe *pathguard.Error
	if errors.As(err, &pe) {
		pe.Path = arg
	}
	return err
}

// looksLikePath reports whether an argument of unknown meaning may name a
// file: it is not an option and contains a slash, starts with "." or "~",
// or names something in the workspace. Anything else that the command
// takes as a file name does not exist.
func (e *Executor) looksLikePath(a string) bool {
	if strings.HasPrefix(a, "-") {
		return false
	}
	if strings.ContainsRune(a, '/') || strings.HasPrefix(a, ".") || strings.HasPrefix(a, "~") {
		return true
	}
	_, err := os.Lstat(e.absolute(a))
	return err == nil
}

// absolute resolves a relative argument against the workspace, the
// command's working directory. It does not clean the path: the Validator
// applies ".." after resolving links, as the kernel will.
func (e *Executor) absolute(a string) string {
	if filepath.IsAbs(a) {
		return a
	}
	return e.workspace + string(filepath.Separator) + a
}

// lookPath finds a command in safePath, the PATH children run with, not
// in the server's own PATH.
func lookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(safePath) {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("command: %s: %w", name, exec.ErrNotFound)
}

// argsField logs a command's arguments without letting hostile ones
// make a log line as long as the chat message they came in: at most
// maxLoggedArgs arguments, each cut to maxLoggedArg bytes, and how many
// there were; secrets redacted as in the audit log (tools.RedactString).
func argsField(args []string) zap.Field {
	const maxLoggedArgs, maxLoggedArg = 16, 128
	out := make([]string, 0, min(len(args), maxLoggedArgs)+1)
	for i, a := range args {
		if i == maxLoggedArgs {
			out = append(out, fmt.Sprintf("… %d more", len(args)-i))
			break
		}
		if len(a) > maxLoggedArg {
			a = fmt.Sprintf("%s… (%d bytes)", runecut.Head(a, maxLoggedArg), len(a))
		}
		out = append(out, tools.RedactString(a))
	}
	return zap.Strings("args", out)
}

// errField logs err with secrets redacted: a refusal or a command's
// stderr may quote the arguments ("unrecognized option
// '--password=…'").
func errField(err error) zap.Field {
	if err == nil {
		return zap.Skip()
	}
	return zap.String("error", tools.RedactString(err.Error()))
}
