package cli

import (
	"context"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/client"
)

// completeCommand is the hidden command the shell completion scripts
// run: "opsassist __complete WORD…" — the words after the program name,
// the last one the word being completed — prints the candidates for it,
// one a line. A first line completeFiles or completeDirs asks the
// script for file or directory names instead. Flags the scripts complete
// themselves.
const completeCommand = "__complete"

// Directives completeCommand prints instead of candidates.
const (
	completeFiles = "__files__"
	completeDirs  = "__dirs__"
)

// completeTimeout bounds the server requests of one completion (session
// ids, model names): a server that is down or slow offers nothing, at
// once, rather than a hanging Tab.
const completeTimeout = 1500 * time.Millisecond

// flagValues are the values of flags that take one of a few words.
var flagValues = map[string][]string{
	"format": {"md", "json"},
	"render": {renderAuto, renderAlways, renderNever},
	"mode":   {"hybrid", "vector", "keyword"},
	"part":   {"all", "train", "heldout"},
	"llm":    {"builtin"},
}

// fileFlags take a file name, dirFlags a directory's; every other flag
// with a value takes no file name.
var (
	fileFlags = []string{"o", "config", "cases", "tls-ca"}
	dirFlags  = []string{"corpus", "data"}
)

// runComplete runs completeCommand; it never fails (nothing to offer is
// no output) and writes nothing to stderr.
func (c *CLI) runComplete(ctx context.Context, words []string) int {
	for _, w := range c.completions(ctx, words) {
		c.printf(c.stdout(), "%s\n", w)
	}
	return ExitOK
}

// completions are the candidates for the last of words (see
// completeCommand), unfiltered: the shell keeps those that start with
// what was typed.
func (c *CLI) completions(ctx context.Context, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	prev, cmd, positional := "", "", 0
	cfg := c.baseConfig()
	for _, w := range words[:len(words)-1] {
		name, val, eq := strings.Cut(strings.TrimLeft(w, "-"), "=")
		switch {
		case prev != "":
			completeConfig(&cfg, prev, w)
			prev = ""
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if takesValue(name) && !eq {
				prev = name
			} else if eq {
				completeConfig(&cfg, name, val)
			} else {
				completeConfig(&cfg, name, "")
			}
		case cmd == "":
			cmd = w
		default:
			positional++
		}
	}
	if prev != "" {
		return c.flagCandidates(ctx, cfg, prev)
	}
	switch cmd {
	case "":
		return commandWords()
	case "help":
		return commandWords()
	case "completion":
		return []string{"bash", "zsh", "fish"}
	case "upload":
		return []string{completeFiles}
	case "export":
		return c.serverSessions(ctx, cfg)
	}
	return nil // a question, a token, a tool's name and arguments: no file names
}

// flagCandidates are the values flag takes.
func (c *CLI) flagCandidates(ctx context.Context, cfg cliConfig, flag string) []string {
	switch {
	case slices.Contains(fileFlags, flag):
		return []string{completeFiles}
	case slices.Contains(dirFlags, flag):
		return []string{completeDirs}
	case flag == "session":
		return c.serverSessions(ctx, cfg)
	case flag == "model":
		return c.serverModels(ctx, cfg)
	}
	return flagValues[flag]
}

// takesValue reports whether the flag name (without dashes) takes a
// value: the next word, unless given as --name=value.
func takesValue(name string) bool {
	for _, f := range valueFlags() {
		if strings.TrimLeft(f, "-") == name {
			return true
		}
	}
	return false
}

// completeConfig applies the connection flags of the line being
// completed to cfg, so candidates come from the server it names.
func completeConfig(cfg *cliConfig, name, val string) {
	switch name {
	case "server":
		cfg.server = val
	case "token":
		cfg.token = val
	case "tls":
		cfg.tls.on = true
	case "tls-ca":
		cfg.tls.ca = val
	case "insecure":
		cfg.tls.insecure = true
	}
}

// completeConn connects quietly for a completion, in a new conversation
// (never the one --session or OPSASSIST_SESSION names, which need not
// exist), within completeTimeout; nil when the server cannot be reached.
func (c *CLI) completeConn(ctx context.Context, cfg cliConfig) (*client.Conn, context.Context, func()) {
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	o := c.options(cfg)
	o.SessionID, o.HelloTimeout = "", completeTimeout
	conn, err := client.Dial(ctx, cfg.server, o)
	if err != nil {
		cancel()
		return nil, nil, func() {}
	}
	return conn, ctx, func() {
		// Quiet by design: a completion prints candidates only; the
		// candidates are already read.
		if err := conn.Close(); err != nil {
			c.logger().Debug("closing the completion connection", zap.Error(err))
		}
		cancel()
	}
}

// serverSessions are the ids of the saved conversations the server
// lists, newest first; none when it cannot be reached in time.
func (c *CLI) serverSessions(ctx context.Context, cfg cliConfig) []string {
	conn, ctx, done := c.completeConn(ctx, cfg)
	defer done()
	if conn == nil {
		return nil
	}
	res, err := conn.Sessions(ctx)
	var list client.SessionList
	if err != nil || res.Decode(&list) != nil {
		return nil
	}
	var ids []string
	for _, s := range list.Sessions {
		if s.Messages == 0 && s.Uploads == 0 {
			continue // this connection's own new conversation, never saved
		}
		ids = append(ids, s.SessionID)
	}
	return ids
}

// serverModels are the names of the models the server offers; none when
// it cannot be reached in time.
func (c *CLI) serverModels(ctx context.Context, cfg cliConfig) []string {
	conn, ctx, done := c.completeConn(ctx, cfg)
	defer done()
	if conn == nil {
		return nil
	}
	res, err := conn.Model(ctx, "")
	var m client.ModelList
	if err != nil || res.Decode(&m) != nil {
		return nil
	}
	return m.Models
}
