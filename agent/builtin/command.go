package builtin

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"opsassist/internal/pathtext"
	"opsassist/tools/command"
)

// commands is the planner's view of the command tiers (command.Tiers, the
// value command_executor runs by): which commands it turns requests into,
// with which default arguments, and which it refuses.
type commands struct {
	tiers command.Tiers
	// embedded finds a whitelisted command with options inside prose
	// ("查看内存（free -h）", "show me ls -la output").
	embedded *rx
	// weights, if not nil, replace the trained model (cross-validation).
	weights weights
	// vocab is the typo corrector's vocabulary (vocabulary), built once.
	vocabOnce sync.Once
	vocab     []string
}

// defaultCommands are the default tiers', for the zero Planner.
var defaultCommands = newCommands(command.Tiers{})

// newCommands returns the view of t. Its rules compile when first used.
func newCommands(t command.Tiers) *commands {
	names := t.Names()
	for i, n := range names {
		names[i] = regexp.QuoteMeta(n)
	}
	alt := strings.Join(names, "|")
	if alt == "" {
		alt = `[^\s\S]` // nothing is whitelisted: match nothing
	}
	return &commands{
		tiers:    t,
		embedded: compile(`(?:^|[^\w-])(` + alt + `)((?:[ \t]+-{1,2}[\w=-]+)+(?:[ \t]+[^\s]+)*)`),
	}
}

// allowed reports whether the tiers whitelist name.
func (c *commands) allowed(name string) bool { return c.tiers.Allowed(name) }

// runnable reports whether the tiers run name with args: the whitelist,
// or the ask tier, which runs once the user confirms the call.
func (c *commands) runnable(name string, args []string) bool {
	tier, _, _ := c.tiers.Classify(name, args)
	return tier != command.TierDeny
}

// askable reports whether name is the command of an ask-tier entry.
func (c *commands) askable(name string) bool {
	for _, e := range c.tiers.Ask() {
		if cmd, _, _ := strings.Cut(e, " "); cmd == name {
			return true
		}
	}
	return false
}

// argv is a whitelisted command with its default arguments, then
// operands: "ps" → ps -eo pid,user,%cpu,%mem,comm --sort=-%cpu, "ls"
// /tmp → ls -la /tmp.
func (c *commands) argv(name string, operands ...string) []string {
	return append(append([]string{name}, c.tiers.DefaultArgs(name)...), operands...)
}

// knownPrograms are common programs whose names are not everyday English
// words, so a line starting with one is a command.
var knownPrograms = words(`rm rmdir reboot shutdown poweroff killall pkill sudo su mkfs dd
	chmod chown chattr chgrp mv cp wget curl bash sh zsh ksh csh python python2 python3 perl ruby php
	nc ncat netcat socat iptables nft ufw systemctl journalctl apt apt-get yum dnf rpm dpkg
	useradd userdel usermod groupadd passwd crontab shred fdisk parted umount swapoff
	vim vi nano emacs htop iotop atop echo printf tee sed awk gawk xargs ssh scp sftp rsync tar unzip gzip
	gunzip docker podman kubectl git nohup tmux netstat ss ifconfig lsof strace ltrace
	tcpdump nmap uname du mkdir ln printenv npm npx pip pip3 gcc
	dmesg vmstat iostat mpstat nslookup traceroute telnet hostnamectl timedatectl
	lsblk blkid lscpu lsmod modprobe insmod sysctl ulimit chroot renice`)

// ambiguousPrograms are programs whose names are also English words; a
// line starting with one is a command only if nothing but options and
// paths follow ("top", "find / -name x", but not "find nginx.conf").
var ambiguousPrograms = words(`top find which who whereis locate more less watch open ping id w last
	file stat sort uniq wc cut tr diff time date cal clear exit init tree man info kill halt service
	mount truncate fish snap zip screen touch env export node java go make sar dig hostname nice at
	batch eval exec source alias unset history helm`)

// proseNames are default commands that are also English words. A line
// starting with a whitelisted command named by one of them or by one of
// ambiguousPrograms is a command line only if every argument looks like
// an option, a path, a file name or a number ("free -h", "cat README.md",
// but not "free space left?").
var proseNames = words(`free head tail cat`)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	reDangerWord = compile(`(?i)(^|[\s"'` + "`" + `;&|(])(rm|rmdir|reboot|shutdown|halt|poweroff|init|kill|killall|pkill|sudo|su|mkfs(\.\w+)?|dd|chmod|chown|chattr|mv|cp|wget|curl|bash|sh|zsh|fish|python3?|perl|ruby|nc|ncat|iptables|systemctl|service|apt(-get)?|yum|dnf|useradd|userdel|passwd|crontab|truncate|shred|fdisk|mount|umount)(\s|$|;|&|\|)`)
	// reDangerProg is reDangerWord without the names that are also
	// English words, for finding a program inside prose.
	reDangerProg = compile(`(?i)(^|[\s"'` + "`" + `;&|(])(rm|rmdir|reboot|shutdown|poweroff|killall|pkill|sudo|su|mkfs(\.\w+)?|dd|chmod|chown|chattr|mv|cp|wget|curl|bash|sh|zsh|python3?|perl|ruby|nc|ncat|iptables|systemctl|apt(-get)?|yum|dnf|useradd|userdel|passwd|crontab|shred|fdisk|umount)(\s|$|;|&|\|)`)
	reShellMeta  = compile("[;&|`$<>]|\\$\\(")
	reDangerZh   = compile(`删|清除|清理|清掉|重置|升级|重启|关机|关闭|关掉|关了|停掉|停止|停了|停(一下|下来?|服)|关(一下|机|闭|停)|重装|回滚|杀掉|杀死|杀了|干掉|弄死|(结束|终止)掉?.{0,12}进程|终止|格式化|清空|提权|卸载|安装|装(个|一下|一个|上)|覆盖|写入|改成|改为|替换成|替换为|移到|移动到|挪到|拷贝到|复制到|重命名|改名|(加|添加|改|修改|赋予?|授予?|开|给|提升).{0,4}权限|root\s*权限|降级|禁用|(修改|更改|重设|重置|改掉?|换)(一下)?.{0,8}(密码|口令)|(运行|执行|跑)(一下)?\s*\.{1,2}/|(给|赋予?|授予?|设为?|设置为?).{0,12}[0-7]{3,4}\s*(的)?权限|(开|打开|开放|放开|放行)(一下)?.{0,8}\d+\s*号?端口`)
	reDangerEn   = compile(`(?i)\b(run|execute|exec|launch)\s+\.{1,2}/\S|\b(delete|remove|erase|wipe|unlink|touch|edit|reset|upgrade|clear (the |all |my )?(logs?|disk|files?|cache|history)|empty (the )?(trash|logs?|disk|directory|folder)|reboot|restart|shut ?down|power ?off|kill|terminate|install|uninstall|chmod|chown|overwrite|escalate|stop|disable|rename|purge|truncate)\b|\bformat\s+(the\s+|my\s+|this\s+|that\s+|a\s+)?(\w+\s+)?(disk|drive|partition|volume|filesystem|device)\b|\bformat\s+/dev|\bformat\s+[a-z]:|\bmove\b.{0,40}\bto\b|\bdrop\s+(the\s+)?(\w+\s+)?(table|database|schema)\b|\b(deleting|removing|erasing|wiping|killing|rebooting|restarting|shutting down|stopping|terminating|installing|uninstalling|overwriting|renaming|purging|truncating|formatting|upgrading|resetting|editing|dropping)\b|\b(change|set|modify|alter)(\s+\w+){0,3}\s+(owner(ship)?|permissions?|mode|password|group)\b|\bshut(\s+\w+){0,3}\s+down\b|\b(turn|switch|power)(\s+\w+){0,3}\s+off\b|\b(bring|take)(\s+\w+){0,3}\s+(down|offline)\b|\bclean ?up\b|\bclear(\s+\w+){0,2}\s+out\b|\bget rid of\b|\bnuke\b|\bbounce\b|\bflush\b`)

	// reExecZh and reExecEn find a request to run a command line.
	reExecZh = compile(`(执行|运行|跑)(一下|下)?\s*(命令|指令)?\s*[:：]?\s*`)
	reExecEn = compile(`(?i)\b(run|execute|exec)\s+(the\s+)?(command\s+)?:?\s*`)
	// reBacktick is a command in backticks.
	reBacktick = compile("`([^`]+)`")
	// reInstrumentZh and reInstrumentEn name a program as the means:
	// "用vim打开", "free命令", "open it in vim", "the top command".
	reInstrumentZh  = compile(`(?i)用\s*([a-z][\w.+-]*)|([a-z][\w.+-]*)\s*(命令|指令)`)
	reInstrumentEn  = compile(`(?i)\b(?:in|with|using|via|use)\s+(?:the\s+)?([a-z][\w.+-]*)\b|\b(?:the\s+)?([a-z][\w.+-]*)\s+command\b`)
	reTrailFiller   = compile(`(?i)[\s,]*(for me|please|pls|plz|thanks|thank you|now|on the server|on this (machine|server|box)|again)?[\s?!。？！]*$`)
	reOperand       = compile(`^(-.*|.*[./~].*|\d+)$`)
	reLiteralMarker = compile(`(?i)\b(for|the|me|my|of|what|how|is|are|and|to|a|an|show|please)\b`)
)

// explicitCommand recognises a command line the user wants run — "执行
// ls -la", "帮我跑一下 free -m", "can you run df -h?", "`ps aux`", a
// message that is a command line — or a program named as the means
// ("用vim打开", "用free命令看下内存"), and returns its argv.
func (c *commands) explicitCommand(text string) ([]string, bool) {
	if loc := reExecZh.FindStringSubmatchIndex(text); loc != nil {
		rest := asciiPrefix(text[loc[1]:])
		if argv := splitCommand(rest); len(argv) > 0 && isASCIILetter(strings.TrimLeft(rest, "`'\"")[0]) {
			// 执行 names a command whatever follows; 运行 and 跑 only a
			// known program ("运行 nginx 的用户" is not a command line).
			if text[loc[2]:loc[3]] == "执行" || c.isProgram(argv[0]) {
				return argv, true
			}
		}
	}
	if loc := reExecEn.FindStringIndex(text); loc != nil {
		rest := text[loc[1]:]
		if m := reLiteralMarker.FindStringIndex(pathtext.Mask(rest)); m != nil && m[0] > 0 {
			rest = rest[:m[0]] // "run df -h to see the disks"
		}
		rest = trimTrail(rest)
		// "jobs that run at midnight": a program that is an English
		// word is one only before arguments.
		if argv := splitCommand(rest); len(argv) > 0 && c.isProgram(argv[0]) && pathtext.IndexOutside(rest, nonASCII) < 0 &&
			!(wordPrograms[strings.ToLower(argv[0])] && len(argv) > 1 && !argsLike(argv[1])) {
			return argv, true
		}
	}
	if m := reBacktick.FindStringSubmatch(text); m != nil {
		if argv := splitCommand(m[1]); len(argv) > 0 && c.isProgram(argv[0]) {
			return argv, true
		}
	}
	if argv, ok := c.instrument(text); ok {
		return argv, true
	}
	if argv, ok := c.bareCommand(text); ok {
		return argv, true
	}
	return c.embeddedCommand(text)
}

// embeddedCommand finds a whitelisted command with options in prose; its
// operands are the options, paths and numbers that follow it. A name
// after a program of the ask tier is its subcommand ("docker ps -a").
func (c *commands) embeddedCommand(text string) ([]string, bool) {
	s := asciiRuns(text)
	loc := c.embedded.FindStringSubmatchIndex(s)
	if loc == nil {
		return nil, false
	}
	if before := strings.Fields(s[:loc[2]]); len(before) > 0 && c.askable(strings.ToLower(before[len(before)-1])) {
		return nil, false // "docker ps -a 看看": docker's subcommand, not ps
	}
	m := []string{s[loc[0]:loc[1]], s[loc[2]:loc[3]], s[loc[4]:loc[5]]}
	argv := []string{m[1]}
	for _, a := range strings.Fields(m[2]) {
		a = trimSentenceEnd(a, ")?!,")
		if !reOperand.MatchString(a) {
			break
		}
		argv = append(argv, a)
	}
	return argv, true
}

// asciiRuns replaces every non-ASCII rune of s outside its paths with
// a line break, so that a match stays within one run of ASCII text and
// the paths in it ("du -sh /data/备份").
func asciiRuns(s string) string {
	return pathtext.MapOutside(s, func(r rune) rune {
		if r > unicode.MaxASCII {
			return '\n'
		}
		return r
	})
}

// instrument finds a program named as the means of a request.
func (c *commands) instrument(text string) ([]string, bool) {
	for _, m := range reInstrumentZh.FindAllStringSubmatch(text, -1) {
		name := strings.ToLower(m[1] + m[2])
		if c.isProgram(name) {
			return c.withDefaults(name, text), true
		}
	}
	for _, m := range reInstrumentEn.FindAllStringSubmatch(text, -1) {
		name := strings.ToLower(m[1] + m[2])
		if knownPrograms[name] || m[2] != "" && c.isProgram(name) {
			return c.withDefaults(name, text), true
		}
	}
	return nil, false
}

// withDefaults is argv for a program named in prose: its operands from
// the text, or its default arguments.
func (c *commands) withDefaults(name, text string) []string {
	if argv, ok := c.pathCommand(text, name); ok {
		return argv
	}
	return c.argv(name)
}

// bareCommand recognises a message that is itself a command line: "ls",
// "ps aux", "df -h", "rm -rf /", "uname -a". A line in a whitelisted
// command's name that reads as prose ("grep for ERROR in app.log") is
// left to the natural-language rules.
func (c *commands) bareCommand(text string) ([]string, bool) {
	t := strings.Trim(strings.TrimSpace(text), "`'\" ")
	if pathtext.IndexOutside(t, nonASCII) >= 0 {
		return nil, false
	}
	argv := splitCommand(t)
	if len(argv) == 0 {
		return nil, false
	}
	name := strings.ToLower(argv[0])
	switch {
	case c.allowed(name):
		lit := trimTrail(t)
		if reShellMeta.MatchString(lit) {
			return splitCommand(lit), true
		}
		if reLiteralMarker.MatchString(lit) {
			return nil, false
		}
		argv = splitCommand(lit)
		if proseNames[name] || ambiguousPrograms[name] {
			for _, a := range argv[1:] {
				if !reOperand.MatchString(a) {
					return nil, false
				}
			}
		}
		return argv, true
	case knownPrograms[name]:
		return argv, true
	case ambiguousPrograms[name]:
		if len(argv) == 1 || strings.HasPrefix(argv[1], "-") || strings.HasPrefix(argv[1], "/") || reShellMeta.MatchString(t) {
			return argv, true
		}
	}
	return nil, false
}

// asciiPrefix is s up to its first non-ASCII rune outside a path,
// trimmed of spaces and sentence punctuation.
func asciiPrefix(s string) string {
	if i := pathtext.IndexOutside(s, nonASCII); i >= 0 {
		s = s[:i]
	}
	return trimSentenceEnd(strings.TrimSpace(s), "?!,")
}

// trimTrail is a command line without the politeness and punctuation
// after it ("ls .. please." → "ls ..").
func trimTrail(s string) string {
	s = trimSentenceEnd(s, " ?!,")
	k := trailStart(s)
	return trimSentenceEnd(s[:k]+reTrailFiller.ReplaceAllString(s[k:], ""), " ?!,")
}

// trailStart is where reTrailFiller's match in s can begin at the
// earliest, for it to be run on the end of s only: its match runs to
// the end, as [\s,]*, a filler of at most 45 bytes (15 letters, ſ and
// the Kelvin sign among them) ending where the closing run of
// [\s?!。？！] begins, and that run; so it begins after that run's
// start less 64 bytes, or within the run of [\s,?!。？！] that reaches
// there. The expression asserts nothing about what is before its
// match, so it finds in s[trailStart(s):] the same match.
func trailStart(s string) int {
	e := len(s)
	for e > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:e])
		if !trailMark(r) || r == ',' {
			break
		}
		e -= size
	}
	k := max(e-64, 0)
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	for k > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !trailMark(r) {
			break
		}
		k -= size
	}
	return k
}

// trailMark reports whether r is of reTrailFiller's [\s,] or
// [\s?!。？！]: \s is ASCII space, tab, newline, form feed, return.
func trailMark(r rune) bool {
	return strings.ContainsRune(" \t\n\f\r,?!。？！", r)
}

// trimSentenceEnd trims the characters of cut and sentence-ending dots
// from the end of s. A dot that is a path segment of the last token —
// "..", ".", "../..", "docs/..", "a/." — is part of the command line,
// not punctuation: "执行 ls .." runs ls on the parent directory.
func trimSentenceEnd(s, cut string) string {
	for {
		t := strings.TrimRight(s, cut)
		if strings.HasSuffix(t, ".") && !endsInDotSegment(t) {
			t = strings.TrimRight(t, ".")
		}
		if t == s {
			return s
		}
		s = t
	}
}

// endsInDotSegment reports whether s ends with a "." or ".." path
// segment: one or two dots at the start of the last token or after a
// slash.
func endsInDotSegment(s string) bool {
	run := len(s) - len(strings.TrimRight(s, "."))
	if run == 0 || run > 2 {
		return false
	}
	before := s[:len(s)-run]
	return before == "" || strings.HasSuffix(before, "/") || strings.HasSuffix(before, " ") ||
		strings.HasSuffix(before, "\t")
}

// isProgram reports whether name is a whitelisted command or a known
// program.
func (c *commands) isProgram(name string) bool {
	name = strings.ToLower(name)
	return c.allowed(name) || c.askable(name) || knownPrograms[name] || ambiguousPrograms[name]
}

// gluedTails are the Chinese ends of the last components of line's
// paths that name no file, each after a line break: a request glued
// into a path ("ls /srv/日志全部删掉") is read with the prose around
// the line, so what it asks is refused as if written apart. Linear in
// the line's length.
func gluedTails(line []string) string {
	var b strings.Builder
	for _, a := range line {
		last := a[strings.LastIndexByte(a, '/')+1:]
		if len(last) == len(a) || pathtext.HasExtension(a) {
			continue
		}
		if i := strings.IndexFunc(last, pathtext.IsHan); i >= 0 {
			b.WriteByte('\n')
			b.WriteString(last[i:])
		}
	}
	return b.String()
}

// nonASCII reports whether r is not ASCII.
func nonASCII(r rune) bool { return r > unicode.MaxASCII }

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func asciiOnly(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// splitCommand splits a command line on spaces, honouring simple quotes.
func splitCommand(s string) []string {
	s = strings.Trim(strings.TrimSpace(s), "`")
	var out []string
	var cur strings.Builder
	quote := rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case quote == 0 && unicode.IsSpace(r):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// refuseCommand explains why argv will not be run, or returns the zero
// refusal.
func (c *commands) refuseCommand(argv []string) refusal {
	if len(argv) == 0 {
		return refusal{"empty command", "命令为空"}
	}
	line := strings.Join(argv, " ")
	if reShellMeta.MatchString(line) {
		return refusal{"shell operators (; & | > < ` $) are not allowed", "不允许使用 shell 操作符（; & | > < ` $）"}
	}
	if !c.runnable(argv[0], argv[1:]) {
		return refusal{"command " + argv[0] + " is not in the whitelist (" + c.tiers.String() + ")",
			"命令 " + argv[0] + " 不在白名单中（" + c.tiers.String() + "）"}
	}
	return refusal{}
}

// reDocQuestion asks how something is done or for its documentation
// ("安装步骤", "how do I restart nginx?"): a question for the documents,
// not a request to act.
var reDocQuestion = compile(`(?i)如何|怎么([^样]|$)|怎样|步骤|文档|说明|手册|教程|指南|流程|方法|\bhow (do|to|can|should)\b|\b(guide|docs?|documentation|manual|procedure|steps|instructions|tutorial)\b`)

// besides is text without the words of argv, each replaced by a space
// once: the prose around a command line, to be checked for destructive
// requests ("用ls命令删除文件"). Each word is looked for after the one
// before it, so the cost is linear in len(text) whatever argv holds; once
// the words not found have cost a few passes over the text, the rest of
// the text is left as it is — checked as prose, the cautious choice.
func besides(text string, argv []string) string {
	var b strings.Builder
	b.Grow(len(text))
	pos, budget := 0, 4*len(text)+256
	for _, a := range argv {
		if a == "" {
			continue
		}
		if budget <= 0 {
			break
		}
		i := strings.Index(text[pos:], a)
		if i < 0 {
			budget -= len(text) - pos
			continue
		}
		budget -= i + len(a)
		b.WriteString(text[pos : pos+i])
		b.WriteByte(' ')
		pos += i + len(a)
	}
	b.WriteString(text[pos:])
	return b.String()
}

// reProgProcess is a program's name naming its processes ("python 进程",
// "java processes"): what runs, not a request to run it.
var reProgProcess = compile(`(?i)\b(python[23]?|perl|ruby|bash|sh|zsh|curl|wget)\s*(的)?\s*(进程|processes|process|procs)`)

// reChange asks to change the system in words the destructive rules do
// not name: creating users, files or jobs, writing to files, opening
// ports, updating packages, deploying. It is read from the prose, with
// paths and file names blanked ("send me deploy.sh" asks for a file).
var reChange = compile(`(?i)\b(change|reset|set)\b.{0,20}\bpasswords?\b|\b(update|upgrade)(\s+\w+){0,3}\s+(packages?|system|kernel|os|software)\b|\bapply(\s+\w+){0,3}\s+(patch(es)?|updates?|fix(es)?)\b|\b(add|create|set up)(\s+\w+){0,3}\s+(users?|accounts?|groups?|cron ?jobs?|crontab|directory|directories|folders?|dir|files?|jobs?)\b|\bopen(\s+up)?(\s+the)?\s+ports?\s+\d+|\bopen(\s+\w+){0,3}\s+(in|on) the firewall\b|\bappend\b|\b(so|that)\s+(everyone|anyone|everybody|all users|others|the world)\s+can\s+(write|edit|modify|execute|run)\b|\bmake\b(\s+\S+){0,4}\s+(world[- ]?)?writable\b|\bwrite\b(\s+\S+){0,4}\s+(to|into)\b|\bmake(\s+\w+){0,3}\s+executable\b|\bcopy(\s+(the|this|that|my|it|them|these|those|files?|logs?|configs?))*\s+(to|into)\b|\broll ?back\b|\bdeploy(\s+(the|a|this))?\s+(new|latest|version|release|build|update|changes?)\b|\b(mkdir|ln|mktemp)\b|\bclean (out|up)\b|\bclean(\s+\w+){1,3}\s+out\b|改一下|改下|改掉|新增.{0,4}(用户|账号|账户|组)|(创建|新建|建一个|建个).{0,6}(用户|账号|目录|文件夹|文件|定时任务|任务)|开放.{0,8}端口|开(一下|个)?端口|加一行|追加|写(个|一个|入|到)|部署(一下|新|最新)|(上线|发布)新版本|清一清|停一停|关一关|刷新.{0,4}缓存|缓存.{0,4}刷新|(加|添加|新增)(一个|个)?.{0,4}(用户|账号|定时任务)`)

// rePastEvent asks when something happened, not for it to happen: "how
// long since the last reboot", "上次重启是什么时候".
var rePastEvent = compile(`(?i)\b(last|previous|since( the)?( last)?)\s+(reboot|restart)(ed)?\b|\b(when|how long ago)\b(\s+\w+){0,4}\s+(rebooted|restarted)\b|\b(rebooted|restarted)\s+(at|on|when)\b|上次重启|上一次重启|重启(过|以来)|多久没(有)?重启|什么时候重启(的|过)`)

// dangerous explains why a natural-language request will not be acted
// on, or returns the zero refusal.
func dangerous(text string) refusal {
	doc := reDocQuestion.MatchString(text) || reDocWord.MatchString(names(text))
	text = rePastEvent.ReplaceAllString(text, " ")
	switch {
	case reShellMeta.MatchString(text) && reDangerWord.MatchString(" "+text):
		return refusal{"piping or chaining commands into a shell is not allowed", "不允许把命令串联或通过管道交给 shell 执行"}
	case doc:
	case reDangerZh.MatchString(text):
		w := reDangerZh.FindString(text)
		return refusal{"destructive or system-changing operations (" + w + ") are not allowed", "不允许执行破坏性或修改系统的操作（" + w + "）"}
	case reDangerEn.MatchString(text):
		w := strings.ToLower(reDangerEn.FindString(text))
		return refusal{"destructive or system-changing operations (" + w + ") are not allowed", "不允许执行破坏性或修改系统的操作（" + w + "）"}
	case reChange.MatchString(names(text)):
		w := strings.ToLower(reChange.FindString(names(text)))
		return refusal{"destructive or system-changing operations (" + w + ") are not allowed", "不允许执行破坏性或修改系统的操作（" + w + "）"}
	}
	switch {
	case reDangerProg.MatchString(" " + reProgProcess.ReplaceAllString(text, " ")):
		m := strings.TrimSpace(strings.Trim(reDangerProg.FindString(" "+text), " ;&|(\"'`"))
		return refusal{"command " + m + " is not allowed", "不允许执行命令 " + m}
	}
	return refusal{}
}

func commandIntent(argv []string) Intent {
	return Intent{Kind: "command", Tool: "command_executor", Args: map[string]any{"command": argv[0], "args": argsOf(argv)}}
}

func argsOf(argv []string) []any {
	out := make([]any, 0, len(argv)-1)
	for _, a := range argv[1:] {
		out = append(out, a)
	}
	return out
}

// Commands described in prose.
var (
	reMount   = compile(`(?i)挂载|所有分区|分区[^，。,？?]{0,6}?挂|挂在(哪|什么)|分区(列表|信息|表)|\bpartitions\b|(各|每)个?分区|\bmounted\b|\bmount ?points?\b|\bmounts\b|\bmount table\b|\ball (the )?partitions\b|\bfile ?systems\b`)
	reProcess = compile(`(?i)进程|\bprocess(es)?\b|\bprocs\b`)
	rePS      = compile(`(?i)进程|\bprocess(es)?\b|\bprocs?\b|process list|服务[^器].{0,6}(运行|跑)|(运行|跑)着?.{0,6}(服务([^器]|$)|程序)|\bps\b|正在运行的程序|running programs|起来?了(没|吗|么)|起来(了)?(没|吗)|启动了(没|吗)|(还)?活着(吗|没)|(程序|进程|服务[^器]).{0,4}(在|正在)(运行|跑)|(在|正在)(运行|跑)的(程序|服务|进程)|\b[\w-]+ (is|are) (still )?running\b|\b(is|are) [\w-]+ (still )?running\b|\bwhat'?s running\b`)
	reLS      = compile(`(?i)列(出|一下|下).{0,6}(文件|目录)|目录下.{0,4}(文件|有什么|有哪些)|有哪些文件|文件列表|\bls\b|list (the |all )?(files|directory|dir|contents)|what files are (here|there)|directory listing|files in (the |this )?(current|working) (directory|dir|folder)`)
	rePWD     = compile(`(?i)当前目录是|当前路径|工作目录|所在目录|(我|你|当前|现在|目前)(现在|当前|目前)?(在|位于)(哪个|哪一个|哪|什么)个?(目录|路径|文件夹)|\bpwd\b|working (directory|dir)\b|current (directory|dir|path)|\b(what|which) (directory|dir|folder|path) (am i|are we)\b|where am i`)
	reWhoami  = compile(`(?i)我的(用户名|账号)|当前用户名|\b(my|current) user ?name\b|\bwhat('s| is) the user ?name\s*\??$|当前(用户|账号|账户)|我是谁|(哪个|什么)(用户|账号|账户)|用户身份|登(录|陆)的?(用户|账号)|(啥|什么|哪个)(用户|账号|账户)|\bwhoami\b|who am i|current user|(which|what) user\b|\brunning as\b`)
	reDF      = compile(`(?i)\bdf\b|mounted file ?systems|file ?system usage`)
	reFree    = compile(`(?i)\bfree -[hmgk]\b|\bfree\b.{0,10}(内存|memory)`)
)

// phraseCommands map prose to a command, run with its default
// arguments, most specific first.
var phraseCommands = []struct {
	re   *rx
	name string
}{
	{reWhoami, "whoami"},
	{rePS, "ps"},
	{reLS, "ls"},
	{rePWD, "pwd"},
	{reDF, "df"},
	{reFree, "free"},
}

// specificCommandIntent is a question the monitor cannot answer though it
// names a resource: mounts and partitions (df lists every file system),
// processes ("占用内存最多的进程": ps shows each one's share).
func (c *commands) specificCommandIntent(text string) (Intent, bool) {
	switch {
	case reMount.MatchString(text):
		return commandIntent(c.argv("df")), true
	case reProcess.MatchString(text):
		return commandIntent(c.argv("ps")), true
	}
	return Intent{}, false
}

func (c *commands) phraseCommandIntent(text string) (Intent, bool) {
	for _, pc := range phraseCommands {
		if pc.re.MatchString(text) {
			return commandIntent(c.argv(pc.name)), true
		}
	}
	return Intent{}, false
}

// Prose about a file or directory path on the server (the path itself
// is package internal/pathtext's to find, read through pathslot.go).
var (
	reTail      = compile(`(?i)最后|末尾|尾部|后\s*[\d零一二两三四五六七八九十百千]+\s*行|(最新|最近)的?.{0,4}(行|条)|\btail\b|\b(last|final)\b.{0,16}\blines?\b|\bend of\b`)
	reHead      = compile(`(?i)前面?\s*[\d零一二两三四五六七八九十百千]+\s*行|前几行|开头|头部|\bhead\b|\b(first|top|opening)\b.{0,16}\blines?\b|\bbeginning of\b`)
	reLineCount = compile(`(?i)(\d+|[零一二两三四五六七八九十百千]+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|a hundred|one hundred|two hundred|thousand))\s*(行|lines?)|\b(?:last|first|top|final)\s+(\d+|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|a hundred|one hundred|two hundred|thousand))\b`)
	reGrep      = compile(`(?i)grep|查找|搜索|搜一下|搜|找一下|找找|找|检索|查一下|查查|查|包含|匹配|有没有|是否有|出现|提到|\bany\b|\bcontains?\b|\bsearch\b|\bfind\b|\blook for\b|\bcontaining\b|\bmatch(es|ing)?\b|\bmention(s|ed)?\b|筛|过滤|\bfilter\b`)
	reQuoted    = compile(`["“'‘「]([^"”'’」]+)["”'’」]`)
	reASCIIWord = compile(`\w[\w.:-]*`)
	reDirWord   = compile(`(?i)目录|文件夹|下面|下有|底下|下的文件|列(出|一下|下)|权限|属主|\bpermissions?\b|\bowner\b|\bls\b|\bdir(ectory)?\b|\bfolder\b|\blist\b|\bfiles (are )?(in|under)\b`)
	reDirWeak   = compile(`(?i)有什么|有哪些|都有啥|有啥|\bwhat('s|s| is) in\b|\bwhat('s|s| is) inside\b`)
	reContent   = compile(`(?i)内容|输出|打出来|瞧瞧|瞅瞅|瞧一眼|瞄一眼|\bdump\b|\boutput\b|查看|看看|看下|看一下|显示|打印|写了|写的|读|\bcat\b|\bcontents?\b|\bshow\b|\bprint\b|\bread\b|\bdisplay\b|\bview\b|\bsays?\b`)
	// grepStop are words around a grep request that are not the pattern.
	grepStop = words(`grep for in the a an of from file log logs search find look me please pls show lines line
		containing contains match matches matching with all any word string text keyword
		which what mention mentions mentioned filter where lines`)
)

// pathCommandIntent turns prose about a server path into cat, head,
// tail, grep or ls: "看下 /var/log/syslog 最后100行", "what's in /tmp?".
func (c *commands) pathCommandIntent(text string) (Intent, bool) {
	if argv, ok := c.pathCommand(text, ""); ok {
		return commandIntent(argv), true
	}
	return Intent{}, false
}

// namedPathCommandIntent is prose naming a whitelisted command and a path
// ("帮我 grep 一下 /var/log/syslog 里的 oom"): the command, whatever else
// the words suggest.
func (c *commands) namedPathCommandIntent(text string) (Intent, bool) {
	if namedCommand(text) == "" {
		return Intent{}, false
	}
	return c.pathCommandIntent(text)
}

// namedCommand is the file command named as a word in text, or "".
func namedCommand(text string) string {
	for _, w := range reASCIIWord.FindAllString(strings.ToLower(text), -1) {
		switch w {
		case "cat", "head", "tail", "grep", "ls":
			return w
		}
	}
	return ""
}

// knownFiles are the names of well-known system files that have no
// extension: what is in /etc/hosts is its lines, not a listing.
var knownFiles = words(`hosts crontab fstab hostname os-release passwd group issue motd environment
	timezone machine-id exports resolv.conf sysctl.conf meminfo cpuinfo loadavg mounts version
	uptime stat vmstat diskstats partitions cmdline shells protocols services networks`)

// pathCommand builds the argv of a command on the path in text; want, if
// set, is the command the user named.
func (c *commands) pathCommand(text, want string) ([]string, bool) {
	ref, _ := absRef(text)
	p := ref.Text
	if p == "" {
		if want == "" || want == "grep" {
			return c.settingGrep(text, "") // "sshd_config 里 PermitRootLogin 开了没"
		}
		return nil, false
	}
	cmd := want
	if cmd == "" {
		cmd = namedCommand(text)
	}
	if cmd == "" || cmd == "grep" {
		if argv, ok := c.settingGrep(text, p); ok {
			return argv, true // "is PermitRootLogin enabled in /etc/ssh/sshd_config"
		}
	}
	if cmd == "" {
		switch {
		case reTail.MatchString(text):
			cmd = "tail"
		case reHead.MatchString(text):
			cmd = "head"
		case reGrep.MatchString(text) && grepPattern(text, p) != "":
			cmd = "grep"
		case reDirWord.MatchString(text), strings.HasSuffix(p, "/"):
			cmd = "ls"
		case reDirWeak.MatchString(text), listsFiles(text):
			cmd = "ls"
			if base := p[strings.LastIndex(p, "/")+1:]; strings.Contains(base, ".") || knownFiles[base] {
				cmd = "cat"
			}
		case reContent.MatchString(text):
			cmd = "cat"
		default:
			return nil, false
		}
	}
	if cmd != "ls" {
		p = spacedFile(text, ref) // "显示 /home/deploy/部署 说明.txt 的全部内容"
	}
	if argv, ok, handled := lineCommandArgv(cmd, text, p); handled {
		return argv, ok
	}
	switch cmd {
	case "ls":
		return c.argv("ls", p), true
	case "cat":
		return []string{"cat", p}, true
	}
	return nil, false
}

// lineCount is the number of lines text asks for, in digits: "20
// lines", "最后二十行", "the last fifty lines" all give "20" or "50";
// "" when it names none.
func lineCount(text string) string {
	m := reLineCount.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return numeral(m[1] + m[3])
}

// grepPattern is what to grep for: a quoted string, or the first English
// word that is neither the path nor part of the request, or else the
// word written after grep in any script ("grep 錯誤 /srv/應用/a.log").
func grepPattern(text, path string) string {
	for _, m := range reQuoted.FindAllStringSubmatch(text, -1) {
		if m[1] != path {
			return m[1] // a quoted path is not the pattern
		}
	}
	rest := strings.Replace(text, path, " ", 1)
	for _, w := range reASCIIWord.FindAllString(rest, -1) {
		if !grepStop[strings.ToLower(w)] {
			return w
		}
	}
	if loc := reGrepWord.FindStringSubmatchIndex(pathtext.Mask(text)); loc != nil {
		if w := text[loc[2]:loc[3]]; !grepFiller[w] {
			return w
		}
	}
	return ""
}

// reGrepWord is the word after grep on a command line, neither an
// option nor a path (pathtext.Mask writes paths as '_'); grepFiller are
// the words after grep that are not its pattern ("grep 一下").
var (
	reGrepWord = compile(`(?i)(?:^|\s)grep\s+([^\s\-_][^\s]*)`)
	grepFiller = words(`一下 下 一下子 下子 看看 看下 一把`)
)

// lineCommandArgv is the argv of head or tail (with the line count text
// asks for) or grep (with its pattern; ok is false without one) on file;
// handled is false for another command.
func lineCommandArgv(cmd, text, file string) (argv []string, ok, handled bool) {
	switch cmd {
	case "tail", "head":
		if n := lineCount(text); n != "" {
			return []string{cmd, "-n", n, file}, true, true
		}
		return []string{cmd, file}, true, true
	case "grep":
		pat := grepPattern(text, file)
		if pat == "" {
			return nil, false, true
		}
		return []string{"grep", pat, file}, true, true
	}
	return nil, false, false
}
