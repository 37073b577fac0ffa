package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"opsassist/client"
)

// lastSessionDir is where ask and upload remember, per terminal and
// server, the conversation they last used: $XDG_STATE_HOME/opsassist/
// sessions, else ~/.local/state/opsassist/sessions, else "" (nothing is
// remembered).
func lastSessionDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "opsassist", "sessions")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "opsassist", "sessions")
	}
	return ""
}

// terminalKey names the terminal this command runs in, from what a
// wrapper (timeout, nice, env, xargs, a script) does not change: the
// terminal's name — $TTY, else the device of the first of stdin,
// stdout and stderr that is a terminal, else the controlling terminal
// (controllingTTY) — joined with the terminal's session (the session
// leader and its start time, TerminalSession: tty names are reused, and
// a new terminal must not resume an old one's conversation). With no
// terminal at all the session alone keys it, and only without that the
// parent process. The parent process was the key whenever stdin was not
// a terminal, so "timeout 60 opsassist ask" (its parent is timeout, not
// the shell) started another conversation than the upload before it.
func (c *CLI) terminalKey() string {
	tty := c.getenv("TTY")
	for _, s := range []any{c.Stdin, c.Stdout, c.Stderr} {
		if tty != "" {
			break
		}
		if f, ok := s.(*os.File); ok && isTerminal(f) {
			if t, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil {
				tty = t
			}
		}
	}
	if tty == "" {
		tty = controllingTTY()
	}
	sess := terminalSession
	if c.TerminalSession != nil {
		sess = c.TerminalSession
	}
	s := sess()
	switch {
	case tty != "" && s != "":
		return "tty:" + tty + "\x00sid:" + s
	case tty != "":
		return "tty:" + tty
	case s != "":
		return "sid:" + s
	}
	return "ppid:" + strconv.Itoa(os.Getppid())
}

// sessionStart returns the start time (field 22, clock ticks since boot)
// from the text of /proc/PID/stat, or "" if it cannot be read. The
// command name (field 2) may hold spaces and parentheses: the fields
// are counted after its last ')'.
func sessionStart(stat string) string {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// lastSessionPath is the file remembering this terminal's conversation
// on server, or "" when there is no state directory.
func (c *CLI) lastSessionPath(server string) string {
	dir := lastSessionDir(c.getenv)
	if dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(server + "\x00" + c.terminalKey()))
	return filepath.Join(dir, hex.EncodeToString(sum[:12]))
}

// lastSession returns the conversation remembered for this terminal and
// server, or "".
func (c *CLI) lastSession(server string) string {
	p := c.lastSessionPath(server)
	if p == "" {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 128 {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// rememberSession records id as this terminal's conversation on server,
// atomically (a temp file renamed into place). A failure is only logged:
// the next command starts a new conversation.
func (c *CLI) rememberSession(server, id string) {
	p := c.lastSessionPath(server)
	if p == "" || id == "" || c.lastSession(server) == id {
		return
	}
	err := os.MkdirAll(filepath.Dir(p), 0o700)
	if err == nil {
		tmp := p + ".tmp" + strconv.Itoa(os.Getpid())
		if err = os.WriteFile(tmp, []byte(id+"\n"), 0o600); err == nil {
			err = os.Rename(tmp, p)
		}
		if err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		c.logger().Debug("remembering the conversation: " + err.Error())
	}
}

// dialDefault dials for ask and upload. Without --session (and --new) it
// resumes the conversation this terminal last used on the server, if it
// still exists, else starts a new one; with -v it says which on stderr.
// The conversation used is remembered for the next command.
func (c *CLI) dialDefault(ctx context.Context, cfg cliConfig, fresh bool) (*client.Conn, error) {
	var last string
	if cfg.session == "" && !fresh {
		last = c.lastSession(cfg.server)
	}
	if last != "" {
		rc := cfg
		rc.session = last
		conn, err := client.Dial(ctx, cfg.server, c.options(rc))
		if err == nil {
			if cfg.verbose {
				c.printf(c.stderr(), c.say("沿用本终端的对话 %s（--new 开始新对话）\n", "using this terminal's conversation %s (--new starts another)\n"), last)
			}
			return conn, nil
		}
		if !errors.Is(err, client.ErrUnknownSession) {
			return nil, err
		}
		// Deleted since: start a new one.
	}
	// A new conversation (or --session's): ask -v names it at the end
	// ("session: ID"), upload on each line. --session may be a prefix.
	return dialSession(ctx, client.Dial, cfg.server, c.options(cfg))
}

// rememberConn remembers conn's conversation for this terminal, unless
// --session named one.
func (c *CLI) rememberConn(cfg cliConfig, conn *client.Conn) {
	if cfg.session == "" {
		c.rememberSession(cfg.server, conn.SessionID())
	}
}
