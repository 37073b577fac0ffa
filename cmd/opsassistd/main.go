// Command opsassistd is the opsassist server: NPLT chat over TCP, RDT
// downloads over UDP and an HTTP API, in front of the ops agent. With no
// flags it runs on embedded defaults: loopback addresses, ./data, the
// built-in planner.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"opsassist/config"
	"opsassist/daemon"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	// Catch signals first, so one that arrives during start-up still
	// shuts down cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("opsassistd", flag.ContinueOnError)
	cfg, err := config.Load(fs, args, os.LookupEnv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(os.Stderr, "opsassistd:", err)
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
