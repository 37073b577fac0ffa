package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/agent/eval"
	"opsassist/agent/llm"
	"opsassist/config"
)

const evalUsage = `usage: opsassist eval --cases FILE [--llm builtin|NAME] [--config FILE]

Runs the tool-selection eval locally (no server): one JSON case per line,
{"input": …, "want_tool": …, "want_args": {…}}. --llm names the built-in
planner (default) or a provider: a preset (zhipu, openai, deepseek, ollama)
or one from the server's YAML config given with --config; its API key is
read from the provider's key variable. Prints a line per miss and
 a last line "accuracy: 0.XXX (K/N)". Exit status 0 whenever the eval ran.
`

// runEval runs "opsassist eval": the planner's first decision for each
// case, scored against the case. It reports; the Go tests enforce.
func (c *CLI) runEval(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	fs.Usage = func() {} // flagError prints the help or the usage
	file := fs.String("cases", "", "")
	llmName := fs.String("llm", "builtin", "")
	cfgFile := fs.String("config", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	if *file == "" || len(pos) > 0 {
		c.printf(c.stderr(), "opsassist: eval needs --cases FILE and no other arguments\n%s", evalUsage)
		return ExitUsage
	}
	planner, err := c.evalPlanner(*llmName, *cfgFile)
	if err != nil {
		c.printf(c.stderr(), "opsassist: eval: %v\n", err)
		return ExitUsage
	}
	cases, err := loadCases(*file)
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	specs, err := eval.DefaultSpecs()
	if err != nil {
		c.printf(c.stderr(), "opsassist: %v\n", err)
		return ExitError
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	r := eval.Run(ctx, planner, specs, cases)
	for _, m := range r.Misses {
		c.printf(c.stdout(), "%s\n", m)
	}
	if _, err := fmt.Fprintln(c.stdout(), r.Summary()); err != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
		return ExitError
	}
	if err := ctx.Err(); err != nil {
		c.printf(c.stderr(), "opsassist: eval interrupted\n")
		return ExitError
	}
	return ExitOK
}

// loadCases reads the cases file; an empty one is an error.
func loadCases(path string) ([]eval.Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := eval.Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", path)
	}
	return cases, nil
}

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
