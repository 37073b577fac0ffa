package builtin

import (
	"strings"

	"opsassist/internal/pathtext"
)

var (
	// reSettingKey is a setting's name as a configuration file writes
	// it: CamelCase (PermitRootLogin, MaxAuthTries), UPPER_SNAKE
	// (DATABASE_PORT) or lower snake (worker_processes).
	reSettingKey = compile(`(?:^|[^\w./-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:$|[^\w./-])`)
	// reSettingLine asks for the line of a setting: "PermitRootLogin 那行是啥".
	reSettingLine = compile(`(?i)那一?行|这一?行|\bthe line\b`)
)

// wellKnownConfigs are configuration files named without their
// directory whose place does not vary between distributions:
// "sshd_config 里 PermitRootLogin 开了没" reads /etc/ssh/sshd_config.
var wellKnownConfigs = map[string]string{
	"sshd_config": "/etc/ssh/sshd_config", "ssh_config": "/etc/ssh/ssh_config",
	"nginx.conf": "/etc/nginx/nginx.conf", "sysctl.conf": "/etc/sysctl.conf",
	"resolv.conf": "/etc/resolv.conf", "fstab": "/etc/fstab", "logrotate.conf": "/etc/logrotate.conf",
}

// settingGrep is grep KEY FILE for a setting asked of a configuration
// file: "is PermitRootLogin enabled in /etc/ssh/sshd_config",
// "sshd_config 里 PermitRootLogin 开了没". The file is path, or, when
// path is "", a well-known configuration named by its name alone; the
// key is a name written as files write it, not the file's. ok is false
// when the message asks no setting, names no file, or the tiers do not
// run grep — the line of the file is then another rule's to find.
func (c *commands) settingGrep(text, path string) ([]string, bool) {
	prose := names(text)
	if !reKeyAsk.MatchString(prose) && !reSettingLine.MatchString(prose) {
		return nil, false
	}
	if path == "" {
		for _, w := range strings.Fields(strings.ToLower(asciiRuns(text))) {
			if p, ok := wellKnownConfigs[strings.Trim(w, `"'`+"`,.?!:;()")]; ok {
				path = p
				break
			}
		}
	}
	if path == "" || path == "/" || strings.HasSuffix(path, "/") {
		return nil, false
	}
	base := path[strings.LastIndexByte(path, '/')+1:]
	for _, m := range reSettingKey.FindAllStringSubmatch(pathtext.Mask(text), -1) {
		key := m[1]
		if strings.EqualFold(key, base) || wellKnownConfigs[strings.ToLower(key)] != "" || knownFiles[strings.ToLower(key)] {
			continue
		}
		argv := []string{"grep", key, path}
		if !c.runnable("grep", argv[1:]) {
			return nil, false
		}
		return argv, true
	}
	return nil, false
}

// reFilesOf asks for the files a path holds: "/srv/app 的文件", "show
// the files in /srv/app"; reContentOf for what a file says.
var (
	reFilesOf   = compile(`(?i)(?:下|里|中|面)?的(?:所有|全部)?文件|文件列表|有哪些文件|\bfiles\b`)
	reContentOf = compile(`(?i)内容|写了|写的|\bcontents?\b|\bsays?\b`)
)

// listsFiles reports whether text asks for the files of a path: a
// listing of it, if the path names no file (pathCommand: a name with an
// extension, or a well-known file, is read instead).
func listsFiles(text string) bool {
	return reFilesOf.MatchString(text) && !reContentOf.MatchString(text)
}
