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

// reSudoLine is "sudo" before a command line in prose ("sudo ls -la
// /var/log 看下", "sudo docker ps -a"): the program after it is what is
// checked (withoutSudo): destructive reads the
// line without it. "sudo" in other words ("add bob to the sudo
// group", "sudo -i") is left for the rules to read.
var reSudoLine = compile(`(?i)(^|[\s"'` + "`" + `;&|(])sudo\s+([a-z][\w.-]*(\s+[a-z]+)?\s+[-/~.])`)
