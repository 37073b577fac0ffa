package builtin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"opsassist/tools"
)

// genericCodes are the failure codes whose text says only the class of
// the failure ("command_executor 执行失败。"): the answer adds the
// cleaned reason after them.
var genericCodes = map[string]bool{
	string(tools.ClassExecution): true, string(tools.ClassParameter): true,
	string(tools.ClassPermission): true, string(tools.ClassValidation): true,
}

var (
	// reErrQuoted is the first quoted string of an error: the path or
	// command the refusal names (pathguard and the policy quote it).
	reErrQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	// rePkgPrefix is a Go package prefix on an error ("pathguard: ").
	rePkgPrefix = regexp.MustCompile(`^[a-z][a-z0-9_]*: `)
	// reDeniedBy is the registry's wording around a policy's reason.
	reDeniedBy = regexp.MustCompile(`^call to \S+ denied by policy: `)
)

// failureSubject is the file or command a failed call was refused
// about: the first quoted string of its error, else the call's file
// argument or its command line.
func failureSubject(r result) string {
	if q := reErrQuoted.FindString(r.Error); q != "" {
		if s, err := strconv.Unquote(q); err == nil && s != "" {
			return s
		}
	}
	for _, k := range []string{"file_path", "path", "file"} {
		if p, ok := r.args[k].(string); ok && p != "" {
			return p
		}
	}
	if c, ok := r.args["command"].(string); ok && c != "" {
		argv := []string{c}
		if as, ok := r.args["args"].([]any); ok {
			for _, a := range as {
				if s, ok := a.(string); ok {
					argv = append(argv, s)
				}
			}
		}
		return strings.Join(argv, " ")
	}
	return ""
}

// cleanReason is a tool's error as the user may read it: without the
// registry's and packages' prefixes, and of a reason written in both
// languages ("…不会询问。… is never read.") the half in the user's
// language.
func cleanReason(zh bool, s string) string {
	s = strings.TrimSpace(reDeniedBy.ReplaceAllString(strings.TrimSpace(s), ""))
	for rePkgPrefix.MatchString(s) {
		s = rePkgPrefix.ReplaceAllString(s, "")
	}
	if i := strings.LastIndex(s, "。"); i >= 0 && hasHan(s[:i]) && !hasHan(s[i:]) {
		if zh {
			return s[:i+len("。")]
		}
		return strings.TrimSpace(s[i+len("。"):])
	}
	return s
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// declinedAction says what a call the user declined would have done,
// when its arguments tell ("你拒绝了执行命令 du -sh /tmp（command_executor）"
// rather than only the tool's name), or "".
func declinedAction(zh bool, r result) string {
	if r.code != tools.CodeDeclined || r.args == nil {
		return ""
	}
	t := lang(zh)
	subject := failureSubject(r)
	if subject == "" {
		return ""
	}
	switch r.tool {
	case "command_executor":
		return fmt.Sprintf(t("你拒绝了执行命令 %[1]s（%[2]s），它没有执行。", "You declined to run %[1]s (%[2]s), so it did not run."), subject, r.tool)
	case "file_download":
		return fmt.Sprintf(t("你拒绝了下载 %[1]s（%[2]s），它没有执行。", "You declined the download of %[1]s (%[2]s), so it did not run."), subject, r.tool)
	}
	return ""
}
