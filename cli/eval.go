package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/agent/eval"
	"opsassist/agent/llm"
	"opsassist/config"
	"opsassist/tools"
)

const evalUsage = `usage: opsassist eval --cases FILE [--cases FILE…] [--report] [--llm builtin|NAME] [--config FILE]

Runs the tool-selection eval locally (no server): one JSON case per line,
{"input": …, "want_tool": …, "want_args": {…}, "want_refuse": true}.
--llm names the built-in planner (default) or a provider: a preset
(zhipu, openai, deepseek, ollama) or one from the server's YAML config
given with --config; its API key is read from the provider's key
variable. Prints a line per miss; with --report the per-tool precision
and recall and a confusion matrix; "refused: K/N destructive requests
without a tool call" when the file has want_refuse cases; and a last
line "accuracy: 0.XXX (K/N)". --cases may be repeated: each file gets a
"cases: FILE" line, then its own block and accuracy line, so the last
line is the last file's. Exit status 0 whenever the eval ran.
`

// filesFlag is a flag that may be given more than once.
type filesFlag []string

func (f *filesFlag) String() string { return strings.Join(*f, ",") }

func (f *filesFlag) Set(s string) error {
	*f = append(*f, s)
	return nil
}

// runEval runs "opsassist eval": the planner's first decision for each
// case, scored against the case. It reports; the Go tests enforce.
func (c *CLI) runEval(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	fs.Usage = func() {} // flagError prints the help or the usage
	var files filesFlag
	fs.Var(&files, "cases", "")
	detail := fs.Bool("report", false, "")
	llmName := fs.String("llm", "builtin", "")
	cfgFile := fs.String("config", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if len(files) == 0 || len(pos) > 0 {
		c.printf(c.stderr(), "opsassist: %s\n%s", c.say("eval 需要 --cases FILE，且不接受其他参数", "eval needs --cases FILE and no other arguments"), evalUsage)
		return ExitUsage
	}
	planner, err := c.evalPlanner(*llmName, *cfgFile)
	if err != nil {
		c.printf(c.stderr(), "opsassist: eval: %v\n", err)
		return ExitUsage
	}
	specs, err := eval.DefaultSpecs()
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	sets := make([][]eval.Case, len(files))
	for i, f := range files {
		if sets[i], err = c.loadCases(f, specs); err != nil {
			c.printf(c.stderr(), "opsassist: %s\n", err)
			return ExitError
		}
	}
	opts := eval.WriteOptions{Detail: *detail, Chinese: c.chinese()}
	for _, s := range specs {
		opts.Tools = append(opts.Tools, s.Name)
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	for i, cases := range sets {
		if len(files) > 1 {
			c.printf(c.stdout(), "cases: %s\n", files[i])
		}
		r := eval.Run(ctx, planner, specs, cases)
		if err := r.Write(c.stdout(), opts); err != nil {
			c.printf(c.stderr(), "opsassist: %s: %v\n", c.say("写输出失败", "writing output"), err)
			return ExitError
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		c.printf(c.stderr(), "opsassist: %s\n", c.say("评测被中断", "eval interrupted"))
		return ExitError
	}
	return ExitOK
}

// loadCases reads a cases file; an empty one, or a want_tool none of
// specs names, is an error. The error is worded for the user, in the
// CLI's language.
func (c *CLI) loadCases(path string, specs []tools.Spec) ([]eval.Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.New(c.friendlyText(err, ""))
	}
	defer f.Close()
	cases, err := eval.Load(f)
	if err != nil {
		return nil, errors.New(c.caseError(path, err))
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf(c.say("%s：没有用例", "%s: no cases"), path)
	}
	if err := eval.CheckTools(cases, specs); err != nil {
		return nil, errors.New(c.caseError(path, err))
	}
	return cases, nil
}

// caseError words a cases file's load error: the file, the line and
// what is wrong with it.
func (c *CLI) caseError(path string, err error) string {
	var le *eval.LineError
	var te *eval.ToolError
	if !errors.As(err, &le) {
		return fmt.Sprintf(c.say("%s：读取失败：%v", "%s: cannot read it: %v"), path, stripEval(err))
	}
	why := stripEval(le.Err)
	switch {
	case errors.Is(le.Err, eval.ErrEmptyInput):
		why = c.say("用例没有 input", "the case has no input")
	case errors.Is(le.Err, eval.ErrLineTooLong):
		why = c.say(fmt.Sprintf("这一行超过 %d 字节", eval.MaxLineSize), fmt.Sprintf("the line is longer than %d bytes", eval.MaxLineSize))
	case errors.As(le.Err, &te):
		why = fmt.Sprintf(c.say("want_tool %q 不是已知的工具（不调用工具请写 \"\"）", "want_tool %q is not a known tool (no tool call is \"\")"), te.Tool)
	case errors.Is(le.Err, eval.ErrRefuseWithTool):
		why = c.say("want_refuse 的用例不能要求工具", "a want_refuse case wants no tool")
	}
	return fmt.Sprintf(c.say("%s 第 %d 行：%s", "%s: line %d: %s"), path, le.Line, why)
}

// stripEval is err's text without the package prefix.
func stripEval(err error) string { return strings.TrimPrefix(err.Error(), "eval: ") }

// evalPlanner returns the planner named by --llm: builtin, or a provider
// (preset or from the config file) whose API key is in the environment.
func (c *CLI) evalPlanner(name, cfgFile string) (agent.Planner, error) {
	if name == "" || name == "builtin" {
		return builtin.Planner{}, nil
	}
	cfg := config.Defaults()
	if cfgFile != "" {
		if err := cfg.LoadFile(cfgFile); err != nil {
			return nil, err
		}
	}
	for _, p := range cfg.AllProviders() {
		if p.Name != name {
			continue
		}
		key := ""
		if p.APIKeyEnv != "" {
			if key = c.getenv(p.APIKeyEnv); key == "" {
				return nil, fmt.Errorf("--llm %s needs its API key in %s", name, p.APIKeyEnv)
			}
		}
		return llm.New(llm.Config{BaseURL: p.BaseURL, Model: p.Model, APIKey: key, Timeout: p.Timeout,
			TextProtocol: p.TextProtocol, Logger: c.logger()}), nil
	}
	return nil, fmt.Errorf("--llm %s: no such provider (builtin, %s)", name, strings.Join(cfg.Models()[1:], ", "))
}
