// Command opsassistd is the opsassist server: NPLT chat over TCP, RDT
// downloads over UDP and an HTTP API, in front of the ops agent. With no
// flags it runs on embedded defaults: loopback addresses, ./data, the
// built-in planner. `opsassistd mcp-stdio` serves its tools over MCP on
// stdin and stdout instead (mcpstdio.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"opsassist/config"
	"opsassist/daemon"
	"opsassist/internal/buildinfo"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	// Catch signals first, so one that arrives during start-up still
	// shuts down cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if printVersion(os.Stdout, args) {
		return 0
	}
	if len(args) > 0 && args[0] == "mcp-stdio" {
		return runMCPStdio(ctx, args[1:])
	}
	fs := flag.NewFlagSet("opsassistd", flag.ContinueOnError)
	fs.Usage = usage(fs, daemonUsage)
	if wantsHelp(args) {
		fs.SetOutput(os.Stdout) // asked-for help is output, not an error
	}
	cfg, err := config.Load(fs, args, os.LookupEnv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(os.Stderr, "opsassistd:", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "opsassistd: unknown command %q (the one command is mcp-stdio, first: opsassistd mcp-stdio [flags]; see opsassistd --help)\n", fs.Arg(0))
		return 2
	}
	log, err := daemon.NewLogger(cfg.Log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opsassistd:", err)
		return 2
	}
	defer log.Sync()

	a, err := daemon.New(cfg, log)
	if err != nil {
		log.Error("startup failed", zap.Error(err))
		return 1
	}
	a.Start()
	log.Info("opsassistd ready", zap.String("version", daemon.Version), zap.String("data", cfg.Data), zap.String("llm", cfg.LLM))

	<-ctx.Done()
	stop()
	log.Info("shutting down", zap.Duration("grace", cfg.Limits.ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.Limits.ShutdownTimeout)
	defer cancel()
	if err := a.Shutdown(sctx); err != nil {
		log.Warn("shutdown incomplete", zap.Error(err))
	}
	log.Info("bye")
	return 0
}

// printVersion prints the version line on w and reports true when args
// ask for it: --version (or -version) anywhere before a "--".
func printVersion(w io.Writer, args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--version" || a == "-version" {
			fmt.Fprintln(w, buildinfo.Read().Line("opsassistd"))
			return true
		}
	}
	return false
}

// wantsHelp reports whether args ask for the help: -h, -help or --help
// before a "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// daemonUsage heads `opsassistd --help`.
const daemonUsage = `usage:
  opsassistd --version          print the version, commit and Go version
  opsassistd [flags]             run the server: NPLT chat (TCP), RDT downloads
                                 (UDP), the HTTP API and web page, MCP at /mcp
  opsassistd mcp-stdio [flags]   serve the tools over MCP on stdin and stdout, for
                                 agents that spawn their MCP servers (Claude Code,
                                 goose, kubectl-ai); see opsassistd mcp-stdio --help

flags (every key also in the --config file and as OPSASSIST_*; docs/configuration.md):
`

// usage prints head, then fs's flags, on fs's output (stdout for
// --help, stderr after a bad flag).
func usage(fs *flag.FlagSet, head string) func() {
	return func() {
		fmt.Fprint(fs.Output(), head)
		fs.PrintDefaults()
	}
}
