// Command opsassist is the opsassist command-line client: an interactive
// chat with the opsassist server, the one-shot "ask" and "upload"
// commands, and "eval", which scores the offline planner's tool choices
// locally. Run "opsassist help" for usage; the cli package does the
// work.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"opsassist/cli"
)

func main() {
	os.Exit(run())
}

func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	c := &cli.CLI{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Interrupts: interrupts,
	}
	return c.Run(ctx, os.Args[1:])
}
