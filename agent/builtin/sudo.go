package builtin

import "strings"

// withoutSudo is a command line without a leading plain "sudo": the
// operator's habit, not part of the request. "sudo df -h" is df, which
// the tiers run, ask about or refuse like any df; "sudo rm -rf /x" is
// rm, refused. The server never runs sudo itself, so nothing is gained
// by it. sudo with options of its own ("sudo -u postgres psql", "sudo
// -i") or alone is left as it is, and refused as sudo.
func withoutSudo(argv []string) []string {
	if len(argv) > 1 && strings.EqualFold(argv[0], "sudo") && !strings.HasPrefix(argv[1], "-") {
		return argv[1:]
	}
	return argv
}

// reSudoLine is "sudo" at the start of a command line in prose ("sudo
// ls -la /var/log 看下", "你好，sudo docker ps -a", "run sudo df -h",
// "$ sudo df -h"): the program after it is what is checked
// (withoutSudo): destructive reads the line without it. "sudo"
// elsewhere ("give deploy sudo ls /root", "add bob to the sudo group",
// "sudo -i") is left for the rules to read: granting it is an access
// change.
var reSudoLine = compile(`(?i)(` + sudoLead + `)sudo\s+([a-z][\w.-]*(\s+[a-z]+)?\s+[-/~.])`)

// sudoLead is what may stand before a command line's sudo: the start,
// a greeting, a request to run it, a prompt, or a shell operator.
const sudoLead = `^[\s"'` + "`" + `]*(?:(?:hi|hello|hey|你好|您好|嗨|哈喽)[\s,，!！。.]*)?` +
	`(?:(?:(?:can|could|would|will)\s+(?:you|u)\s+)?(?:please\s+|pls\s+)?run\s+|(?:请|麻烦|帮我|帮忙)?\s*(?:执行一下|运行一下|执行|运行)?|\$)?\s*|[;&|(]\s*`

// reSudoAtLead is sudo where a command line starts.
var reSudoAtLead = compile(`(?i)(?:` + sudoLead + `)sudo\b`)

// reSudoWord is the word sudo.
var reSudoWord = compile(`(?i)\bsudo\b`)

// sudoGranted reports whether text has sudo before a command line
// somewhere other than the start of the line ("let bob run sudo cat
// /etc/shadow without a password"): a grant of access, not the
// operator's habit.
func sudoGranted(text string, argv []string) bool {
	return len(argv) > 0 && strings.EqualFold(argv[0], "sudo") && reSudoWord.MatchString(reSudoAtLead.ReplaceAllString(text, " "))
}
