package command

import (
	"fmt"
	"slices"
	"strings"
)

// defaultWhitelist is the whitelist of the zero Tiers, in the order
// prompts and refusals list it.
const defaultWhitelist = "ls cat grep head tail ps pwd whoami df free"

// Tiers are the command tiers, the one definition of which commands run
// that everything else reads: the tool (Config.Commands), the offline
// planner (what it recognises and refuses, and the commands its refusals
// list) and the model's system prompt. The daemon builds one value from
// the configuration's commands list and hands it to each.
//
// The tiers are:
//   - the whitelist: the commands that may run, read-only ones by
//     intent; the zero Tiers holds the defaults (defaultWhitelist);
//   - the deny list: commands that can never be whitelisted because they
//     run other commands (shells, env, xargs, sudo, find …), wait for a
//     terminal or never end (watch, top, less …); NewTiers refuses them;
//   - everything else, refused when asked for.
//
// A Tiers is immutable and safe to copy and share.
type Tiers struct {
	// names is the whitelist; nil in the zero value, which means the
	// defaults.
	names []string
}

// NewTiers returns the tiers whitelisting the given commands, bare names
// looked up in /usr/local/bin, /usr/bin and /bin. A nil list means the
// defaults; an empty one whitelists nothing. It refuses names with a
// slash, a space or a shell metacharacter, and the commands of the deny
// list.
func NewTiers(whitelist []string) (Tiers, error) {
	if whitelist == nil {
		return Tiers{}, nil
	}
	for _, name := range whitelist {
		if name == "" || strings.ContainsRune(name, '/') || strings.ContainsAny(name, unsafeChars+" \t") {
			return Tiers{}, fmt.Errorf("command: whitelist entry %q is not a bare command name", name)
		}
		if why, ok := neverAllowed(name); ok {
			return Tiers{}, fmt.Errorf("command: %q may not be whitelisted: it %s", name, why)
		}
	}
	return Tiers{names: append(make([]string, 0, len(whitelist)), whitelist...)}, nil
}

// Names returns the whitelisted commands, in their configured order.
func (t Tiers) Names() []string {
	if t.names == nil {
		return strings.Fields(defaultWhitelist)
	}
	return slices.Clone(t.names)
}

// Allowed reports whether name is whitelisted. Names are compared
// exactly: "LS" and "/bin/ls" are not ls.
func (t Tiers) Allowed(name string) bool {
	if t.names == nil {
		return slices.Contains(strings.Fields(defaultWhitelist), name)
	}
	return slices.Contains(t.names, name)
}

// String lists the whitelisted commands separated by spaces, as prompts
// and refusals show them: "ls cat grep head tail ps pwd whoami df free".
func (t Tiers) String() string {
	if t.names == nil {
		return defaultWhitelist
	}
	return strings.Join(t.names, " ")
}

// DefaultArgs returns the arguments to run a command with when a request
// names it without any ("用free命令看下内存" runs free -h), or nil.
func (t Tiers) DefaultArgs(name string) []string {
	switch name {
	case "ps":
		return []string{"aux"}
	case "ls":
		return []string{"-la"}
	case "df", "free":
		return []string{"-h"}
	}
	return nil
}

// neverAllowed returns why a command is on the deny list, which NewTiers
// refuses to whitelist: it runs other commands (some through a shell),
// waits for a terminal, or loops until killed whatever its arguments. No
// option table makes such a command safe.
func neverAllowed(name string) (string, bool) {
	switch name {
	case "watch":
		return "runs its argument through a shell, again and again", true
	case "top", "htop", "atop", "btop":
		return "redraws until killed", true
	case "less", "more", "vi", "vim", "nano":
		return "waits for a terminal", true
	case "sh", "bash", "dash", "zsh", "script":
		return "is or runs a shell", true
	case "env", "xargs", "nohup", "timeout", "nice", "setsid", "sudo", "su", "busybox":
		return "runs other commands", true
	case "find":
		return "runs other commands (-exec) and deletes files (-delete)", true
	}
	return "", false
}
