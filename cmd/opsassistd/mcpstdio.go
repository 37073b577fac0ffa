package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"opsassist/chat"
	"opsassist/config"
	"opsassist/daemon"
	"opsassist/internal/mcpstdio"
	"opsassist/storage/datalock"
	"opsassist/transport/mcpbridge"
)

// envToken is the access token's environment variable, the CLI's
// (cli.EnvToken; main_test.go keeps them equal): one token for both.
const envToken = "OPSASSIST_TOKEN"

// mcpPath is where the daemon's HTTP listener serves MCP.
const mcpPath = "/mcp"

// mcpStdioUsage heads `opsassistd mcp-stdio --help`.
const mcpStdioUsage = `usage: opsassistd mcp-stdio [flags]

Serves opsassist's built-in tools as an MCP server on stdin and stdout, for
agents that spawn their MCP servers (Claude Desktop and Code, goose,
kubectl-ai). stdout carries MCP messages only; every log line goes to stderr.
It reads the daemon's configuration (these flags, --config, OPSASSIST_*) and
picks its mode by the data directory's lock:

  a daemon holds it   bridge to that daemon's MCP endpoint: /mcp on the http
                      address it recorded in <data>/daemon.json once its
                      listeners were bound (https, trusting exactly the
                      certificate recorded there, when it speaks TLS). --http
                      and http: do not matter here: the bridge connects to
                      nothing else, and with no current record (missing, or
                      left by a process that no longer holds the lock) it
                      exits 1. It sends the token in OPSASSIST_TOKEN, else
                      the configured auth_token; users' tokens are not read.
                      The daemon runs the calls, applies its policy and
                      writes its audit log. A daemon that cannot be reached
                      fails the agent's initialize and mcp-stdio exits 1;
                      one lost later makes each call a tool error.
  no daemon           run one in this process on the data directory, its NPLT,
                      HTTP and RDT listeners on 127.0.0.1 random ports, until
                      stdin closes or SIGTERM. It acts for the local operator,
                      or, when users or auth_token are configured and
                      OPSASSIST_TOKEN is set, for that token's user and role (a
                      token that names nobody: exit 1). A user whose token_env
                      is unset here is no error: nobody signs in as them.

Either way a call the permission policy puts at ask is confirmed through the
agent's MCP elicitation, and denied when the agent has none.

exit status: 0 when stdin closes or on SIGTERM, 1 on a runtime error, 2 on a
usage error

flags:
`

// runMCPStdio is `opsassistd mcp-stdio`: a daemon of its own if it can
// take the data directory, a bridge to the daemon holding it otherwise.
// Taking the lock is the test: it cannot race with a daemon starting or
// stopping, as asking first would.
func runMCPStdio(ctx context.Context, args []string) int {
	// An agent that closes our stdout before our last write must not kill
	// us with SIGPIPE (the in-process daemon would skip its shutdown):
	// ignored, the write fails with EPIPE and the session ends.
	signal.Ignore(syscall.SIGPIPE)
	fs := flag.NewFlagSet("opsassistd mcp-stdio", flag.ContinueOnError)
	fs.Usage = usage(fs, mcpStdioUsage)
	// The users' tokens are the daemon's: the agent brings at most one
	// (OPSASSIST_TOKEN), so a user whose token_env is unset here is kept,
	// unable to sign in, rather than an error.
	cfg, err := config.Load(fs, args, os.LookupEnv, config.WithUnsetTokens)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(os.Stderr, "opsassistd mcp-stdio:", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "opsassistd mcp-stdio: unexpected argument %q (see opsassistd mcp-stdio --help)\n", fs.Arg(0))
		return 2
	}
	// daemon.NewLogger writes to stderr only: stdout is the MCP stream.
	log, err := daemon.NewLogger(cfg.Log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opsassistd mcp-stdio:", err)
		return 2
	}
	defer log.Sync()
	local := cfg
	local.NPLT, local.HTTP, local.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	a, err := daemon.New(local, log)
	if held, ok := errors.AsType[*datalock.HeldError](err); ok {
		log.Info("the data directory is held by a running daemon; bridging to it", zap.String("data", held.Dir), zap.Int("pid", held.PID))
		return bridge(ctx, cfg, held.PID, log)
	}
	if err != nil {
		log.Error("startup failed", zap.Error(err))
		return 1
	}
	return serveInProcess(ctx, a, cfg, log)
}

// serveInProcess starts a, serves its MCP server on stdin and stdout for
// the principal OPSASSIST_TOKEN names until stdin closes or ctx ends,
// then shuts a down.
func serveInProcess(ctx context.Context, a *daemon.App, cfg config.Config, log *zap.Logger) int {
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), cfg.Limits.ShutdownTimeout)
		defer cancel()
		if err := a.Shutdown(sctx); err != nil {
			log.Warn("shutdown incomplete", zap.Error(err))
		}
	}()
	if unset := cfg.UnsetTokenUsers(os.LookupEnv); len(unset) > 0 {
		log.Info("users whose token_env is unset cannot sign in to this process", zap.Strings("users", unset))
	}
	who, err := principal(cfg, os.LookupEnv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opsassistd mcp-stdio:", err)
		return 1
	}
	a.Start()
	log.Info("mcp-stdio serving in this process", zap.String("version", daemon.Version), zap.String("data", cfg.Data), zap.String("as", who.Name),
		zap.Stringer("nplt", a.NPLTAddr()), zap.Stringer("http", a.HTTPAddr()), zap.Stringer("rdt", a.RDTAddr()))
	err = a.MCPServer().Serve(ctx, stdio(log), who)
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Error("mcp-stdio failed", zap.Error(err))
		return 1
	}
	return 0
}

// principal is who an in-process mcp-stdio acts for: the local operator
// (whoever can spawn it runs the tools as their own Unix user anyway),
// or, when tokens are configured and OPSASSIST_TOKEN is set, that
// token's user, who must be one whose token this process has (a user
// whose token_env is unset here matches no token).
func principal(cfg config.Config, lookup func(string) (string, bool)) (chat.Principal, error) {
	tok, _ := lookup(envToken)
	d, err := cfg.Directory(lookup)
	if err != nil {
		return chat.Principal{}, err
	}
	if tok == "" || !d.Enabled() {
		return chat.Local(), nil
	}
	who, ok := d.Authenticate(tok)
	if !ok {
		msg := fmt.Sprintf("%s names no configured user (users:, auth_token) whose token this process has", envToken)
		if unset := cfg.UnsetTokenUsers(lookup); len(unset) > 0 {
			msg += "; token_env unset here for " + strings.Join(unset, ", ")
		}
		return chat.Principal{}, errors.New(msg + "; unset it to act as the local operator")
	}
	return who, nil
}

// bridge serves the tools of the daemon holding the data directory
// (pid holder) on stdin and stdout. It reaches exactly the address that
// daemon recorded there (datalock.ReadRecord), trusting exactly the
// certificate it recorded: without a usable record it fails, and the
// token goes nowhere.
func bridge(ctx context.Context, cfg config.Config, holder int, log *zap.Logger) int {
	rec, err := datalock.ReadRecord(cfg.Data, holder)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opsassistd mcp-stdio:", err)
		return 1
	}
	var tc *tls.Config
	if rec.TLS {
		if tc, err = daemon.LocalClientTLS(rec.TLSCertSHA256); err != nil {
			fmt.Fprintf(os.Stderr, "opsassistd mcp-stdio: %s: %v\n", filepath.Join(cfg.Data, datalock.RecordName), err)
			return 1
		}
	}
	tok, _ := os.LookupEnv(envToken)
	if tok == "" {
		tok = cfg.AuthToken
	}
	url := daemonMCPURL(rec.HTTP, rec.TLS)
	log.Debug("the daemon's record", zap.String("url", url), zap.Int("pid", rec.PID), zap.String("version", rec.Version))
	b, err := mcpbridge.New(mcpbridge.Config{URL: url, Token: tok, TLS: tc, Version: daemon.Version, Logger: log.Named("mcp-bridge")})
	if err != nil {
		log.Error("mcp-stdio failed", zap.Error(err))
		return 1
	}
	err = b.Serve(ctx, stdio(log))
	switch {
	case errors.Is(err, mcpbridge.ErrUnreachable):
		fmt.Fprintln(os.Stderr, "opsassistd mcp-stdio:", err)
		return 1
	case err != nil && !errors.Is(err, context.Canceled):
		log.Error("mcp-stdio failed", zap.Error(err))
		return 1
	}
	return 0
}

// stdio is the MCP transport on stdin and stdout: a line that is not a
// JSON-RPC message, or is too long, is dropped with a warning on stderr
// instead of ending the session.
func stdio(log *zap.Logger) *mcpstdio.Transport {
	return &mcpstdio.Transport{In: os.Stdin, Out: os.Stdout, Logger: log.Named("stdio")}
}

// daemonMCPURL is the daemon's MCP endpoint on its HTTP address, a
// wildcard host reached on loopback.
func daemonMCPURL(httpAddr string, secure bool) string {
	scheme := "http://"
	if secure {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return scheme + httpAddr + mcpPath
	}
	switch ip := net.ParseIP(host); {
	case host == "" || ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return scheme + net.JoinHostPort(host, port) + mcpPath
}
