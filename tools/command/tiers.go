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
//   - the whitelist: the commands that run without asking, read-only
//     ones by intent; the zero Tiers holds the defaults
//     (defaultWhitelist);
//   - the ask tier: operator commands that run only once the user
//     approved the call (tools.Call.Approved), each with a strict table
//     of the arguments it accepts (askSpecs: systemctl status|restart|
//     reload UNIT, journalctl -u UNIT, du, ss, netstat, docker
//     ps|logs|restart, and uptime if configured); the zero Tiers holds
//     DefaultAsk, WithAsk picks others;
//   - the deny list: commands never run and never asked about — they
//     destroy data, stop the machine, change users, sudo rights or
//     packages (rm, mkfs, dd, shutdown, reboot, useradd, passwd, apt …)
//     or run other commands (shells, env, xargs, sudo, find …), wait
//     for a terminal or never end (watch, top, less …); NewTiers and
//     WithAsk refuse them;
//   - everything else, refused like the deny list.
//
// A Tiers is immutable and safe to copy and share.
type Tiers struct {
	// names is the whitelist; nil in the zero value, which means the
	// defaults.
	names []string
	// ask is the ask tier; nil means DefaultAsk.
	ask []string
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

// WithAsk returns t with the ask tier set to entries, each one with an
// argument table (askSpecs: DefaultAsk and "uptime"): only such commands
// can be asked about. A nil list keeps the defaults; an empty one
// asks about nothing (those commands are then refused).
func (t Tiers) WithAsk(entries []string) (Tiers, error) {
	if entries == nil {
		t.ask = nil
		return t, nil
	}
	for _, e := range entries {
		name, _, _ := strings.Cut(e, " ")
		if why, ok := neverAllowed(name); ok {
			return Tiers{}, fmt.Errorf("command: %q may not be in the ask tier: it %s", e, why)
		}
		if _, ok := askSpecs[e]; !ok {
			return Tiers{}, fmt.Errorf("command: ask tier entry %q is unknown (known: %s, uptime)", e, strings.Join(DefaultAsk(), ", "))
		}
	}
	t.ask = append(make([]string, 0, len(entries)), entries...)
	return t, nil
}

// DefaultAsk returns the entries of the default ask tier, in the order
// prompts and documents list them.
func DefaultAsk() []string { return strings.Split(defaultAsk, ",") }

// Ask returns the ask tier's entries, in their configured order, but
// those of whitelisted commands, which run without asking.
func (t Tiers) Ask() []string {
	entries := t.ask
	if entries == nil {
		entries = DefaultAsk()
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e string) bool {
		name, _, _ := strings.Cut(e, " ")
		return t.Allowed(name)
	})
}

// Tier is where a command line falls.
type Tier int

// Command tiers.
const (
	// TierAllow is the whitelist: run without asking.
	TierAllow Tier = iota
	// TierAsk is the ask tier: run once the user approved.
	TierAsk
	// TierDeny is the deny list and every command in no tier: never run.
	TierDeny
)

// Classify returns the tier of the command line name args and, for the
// ask tier, the entry it falls under ("systemctl restart"); for the
// deny tier, why, in a phrase for the user. It looks at the command and
// its subcommand only, and the executor checks the arguments; the one
// exception is the whitelisted ps, whose call is in the ask tier (entry
// PSEntry, why saying so) when its output would show every process's
// full command line (psShowsArgs: "ps aux", "ps -ef", "ps -o pid,args").
func (t Tiers) Classify(name string, args []string) (tier Tier, entry, why string) {
	if why, ok := neverAllowed(name); ok {
		return TierDeny, "", name + " " + why
	}
	if t.Allowed(name) {
		if name == "ps" && psShowsArgs(args) {
			return TierAsk, PSEntry, psWhyArgs
		}
		return TierAllow, "", ""
	}
	for _, e := range t.Ask() {
		cmd, sub, hasSub := strings.Cut(e, " ")
		if cmd != name {
			continue
		}
		if !hasSub || len(args) > 0 && args[0] == sub {
			if u, ok := stateUnit(e, args); ok {
				return TierDeny, "", fmt.Sprintf("%s %s changes the machine's state (targets such as reboot.target, rescue.target, and sleep, kexec, halt units are never restarted or reloaded)", e, u)
			}
			return TierAsk, e, ""
		}
	}
	return TierDeny, "", fmt.Sprintf("%s is not in the whitelist (%s) nor among the commands that can be confirmed (%s)", strings.TrimSpace(name+" "+firstWord(args)), t.String(), strings.Join(t.Ask(), ", "))
}

// stateUnit returns the first unit argument of "systemctl restart" or
// "systemctl reload" that is a target (reboot.target, emergency.target,
// multi-user.target: restarting one isolates or powers off the
// machine) or a unit that suspends, hibernates, halts, powers off,
// kexecs or reboots it, whatever its suffix.
func stateUnit(entry string, args []string) (string, bool) {
	if entry != "systemctl restart" && entry != "systemctl reload" {
		return "", false
	}
	for _, a := range args[1:] {
		u := strings.ToLower(a)
		base, _, _ := strings.Cut(u, ".")
		if strings.HasSuffix(u, ".target") || strings.Contains(u, ".target") {
			return a, true
		}
		switch base {
		case "reboot", "poweroff", "halt", "kexec", "shutdown", "suspend", "hibernate", "hybrid-sleep",
			"suspend-then-hibernate", "sleep", "emergency", "rescue", "ctrl-alt-del", "default", "exit", "final", "soft-reboot":
			return a, true
		}
		if strings.HasPrefix(base, "systemd-") {
			switch strings.TrimPrefix(base, "systemd-") {
			case "reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "soft-reboot":
				return a, true
			}
		}
	}
	return "", false
}

// firstWord is the first argument that is not an option, or "".
func firstWord(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
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
// names it without any ("用free命令看下内存" runs free -h), or nil. ps
// runs as "ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu": command names,
// never the full command lines, which need the user's confirmation.
func (t Tiers) DefaultArgs(name string) []string {
	switch name {
	case "ps":
		return slices.Clone(psDefaultArgs)
	case "ls":
		return []string{"-la"}
	case "df", "free":
		return []string{"-h"}
	}
	return nil
}

// neverAllowed returns why a command is on the deny list, which NewTiers
// and WithAsk refuse: it destroys data, stops the machine, changes
// users, sudo rights, packages or the system, runs other commands (some
// through a shell), waits for a terminal, or loops until killed whatever
// its arguments. No option table makes such a command safe, and the user
// is never asked about it.
func neverAllowed(name string) (string, bool) {
	if strings.HasPrefix(name, "mkfs") {
		return "formats a file system", true
	}
	switch name {
	case "rm", "rmdir", "shred", "dd", "truncate", "wipefs", "fdisk", "parted", "sfdisk", "mkswap":
		return "destroys data", true
	case "shutdown", "reboot", "poweroff", "halt", "init", "telinit", "kexec":
		return "stops or restarts the machine", true
	case "useradd", "userdel", "usermod", "adduser", "deluser", "groupadd", "groupdel", "groupmod",
		"passwd", "chpasswd", "chage", "gpasswd", "visudo":
		return "changes users, passwords or sudo rights", true
	case "apt", "apt-get", "aptitude", "dpkg", "yum", "dnf", "rpm", "zypper", "pacman", "apk", "snap", "flatpak",
		"pip", "pip3", "npm", "gem":
		return "installs or removes packages", true
	case "chmod", "chown", "chgrp", "chattr", "mount", "umount", "swapoff", "iptables", "nft", "ufw", "crontab",
		"kill", "killall", "pkill":
		return "changes the system", true
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

// neverAllowedZh are neverAllowed's reasons in Chinese.
var neverAllowedZh = map[string]string{
	"formats a file system":                                   "会格式化文件系统",
	"destroys data":                                           "会破坏数据",
	"stops or restarts the machine":                           "会关闭或重启机器",
	"changes users, passwords or sudo rights":                 "会修改用户、口令或 sudo 权限",
	"installs or removes packages":                            "会安装或卸载软件包",
	"changes the system":                                      "会修改系统",
	"runs its argument through a shell, again and again":      "会通过 shell 反复执行它的参数",
	"redraws until killed":                                    "会一直刷新直到被终止",
	"waits for a terminal":                                    "需要等待终端输入",
	"is or runs a shell":                                      "本身是或会运行 shell",
	"runs other commands":                                     "会运行其他命令",
	"runs other commands (-exec) and deletes files (-delete)": "会运行其他命令（-exec）并删除文件（-delete）",
}

// whyDeniedZh is Classify's reason for a denied command, in Chinese
// (the policy's Target.WhyZh); "" when Classify does not deny it.
func (t Tiers) whyDeniedZh(name string, args []string) string {
	if why, ok := neverAllowed(name); ok {
		return name + " " + neverAllowedZh[why]
	}
	if tier, _, _ := t.Classify(name, args); tier != TierDeny {
		return ""
	}
	if u, ok := stateUnit(firstTwo(name, args), args); ok {
		return fmt.Sprintf("%s %s 会改变机器的运行状态（reboot.target、rescue.target 等目标以及休眠、kexec、停机单元永远不会被重启或重载）", firstTwo(name, args), u)
	}
	return fmt.Sprintf("%s 不在白名单（%s）中，也不是可确认后执行的命令（%s）", strings.TrimSpace(name+" "+firstWord(args)), t.String(), strings.Join(t.Ask(), "、"))
}

// firstTwo is the command and its first argument, "systemctl restart".
func firstTwo(name string, args []string) string {
	if len(args) == 0 {
		return name
	}
	return name + " " + args[0]
}
