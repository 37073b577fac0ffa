package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"opsassist/internal/pathtext"
)

// genericCodes are the failure codes whose text says only the class of
// the failure ("command_executor 执行失败。"): FailureText adds the
// cleaned reason after them.
var genericCodes = map[string]bool{
	string(ClassExecution): true, string(ClassParameter): true,
	string(ClassPermission): true, string(ClassValidation): true,
}

var (
	// reErrQuoted is the first quoted string of an error: the path or
	// command the refusal names (pathguard and the policy quote it).
	reErrQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	// rePkgPrefix is a Go package prefix on an error ("pathguard: ").
	// rePkgPrefix are Go package prefixes on an error ("pathguard: "),
	// stacked ones in one match so that stripping them is linear.
	rePkgPrefix = regexp.MustCompile(`^(?:[a-z][a-z0-9_]*: )+`)
	// reLangSplit is where a text in both languages turns to English: a
	// full stop ending the Chinese half, then a capital letter.
	reLangSplit = regexp.MustCompile(`。\s*[A-Z"'(]`)
	// reDeniedBy is the registry's wording around a policy's reason.
	reDeniedBy = regexp.MustCompile(`^call to \S+ denied by policy: `)
)

// FailureText says why a call of tool with args did not succeed, in
// Chinese when zh and in English otherwise, from its Result's Code
// (UserTextAbout, naming the file or command it was refused about) and
// its error errText: the error's reason, cleaned (CleanReason), follows
// only the codes that say no more than the failure's class, and never an
// English reason in a Chinese text; a result without a known code shows
// its reason alone; a declined command or download says what it would
// have done; arguments the tool's schema refused are named
// (schemaFailureText). The answers of the
// offline planner and the CLI's direct calls (opsassist tool, /tool)
// both say failures with it.
func FailureText(zh bool, code, tool, errText string, args map[string]any) string {
	if code == string(ClassParameter) || code == "" {
		if s := schemaFailureText(zh, tool, errText); s != "" {
			return s // names the arguments; nothing more to add
		}
	}
	why := CleanReason(zh, errText)
	if zh && !pathtext.HasHanOutside(why) {
		// An English reason never follows a Chinese answer — one that
		// quotes a Chinese path is English all the same: the generic
		// sentence alone; the raw reason stays in the log, the audit
		// record and the model's result.
		why = ""
	}
	subject := FailureSubject(errText, args)
	if d := declinedAction(zh, code, tool, subject, args); d != "" {
		return d
	}
	if d := unaskedAction(zh, code, tool, subject, args); d != "" {
		return d
	}
	s := UserTextAbout(code, tool, subject, zh)
	switch {
	case s == "" && why == "":
		return fmt.Sprintf(pickLang(zh, "工具 %s 执行失败。", "%s failed."), tool)
	case s == "":
		return fmt.Sprintf(pickLang(zh, "工具 %s 执行失败：%s", "%s failed: %s"), tool, why)
	case why != "" && genericCodes[code]:
		return s + pickLang(zh, "原因：", " Reason: ") + why
	}
	return s
}

// FailureDetail is the reason FailureText leaves out of a Chinese text
// because it is in English, for a code that says no more than the
// failure's class (or none): a caller that shows the tool's own error —
// a direct call — prints it beside the sentence. "" otherwise.
func FailureDetail(zh bool, code, errText string) string {
	if reSchemaFailure.MatchString(errText) {
		return "" // FailureText names the arguments
	}
	why := CleanReason(zh, errText)
	if !zh || why == "" || pathtext.HasHanOutside(why) || (code != "" && !genericCodes[code] && UserTextAbout(code, "x", "", zh) != "") {
		return ""
	}
	return why
}

// declinedAction says what a call the user declined would have done,
// when its arguments tell ("你拒绝了执行命令 du -sh /tmp（command_executor）"
// rather than only the tool's name), or "".
func declinedAction(zh bool, code, tool, subject string, args map[string]any) string {
	if code != CodeDeclined || args == nil || subject == "" {
		return ""
	}
	switch tool {
	case "command_executor":
		return fmt.Sprintf(pickLang(zh, "你拒绝了执行命令 %[1]s（%[2]s），它没有执行。", "You declined to run %[1]s (%[2]s), so it did not run."), subject, tool)
	case "file_download":
		return fmt.Sprintf(pickLang(zh, "你拒绝了下载 %[1]s（%[2]s），它没有执行。", "You declined the download of %[1]s (%[2]s), so it did not run."), subject, tool)
	}
	return ""
}

// unaskedAction says what a call that needed confirmation would have
// done, when its arguments tell, and that nobody could be asked — the
// client had no terminal, or cannot ask at all — so it is never worded
// as the user's no; "" otherwise.
func unaskedAction(zh bool, code, tool, subject string, args map[string]any) string {
	if code != CodeNoConfirmation || args == nil || subject == "" {
		return ""
	}
	const (
		zhTail = "需要你确认，但当前客户端无法询问你（例如标准输入不是终端），所以没有执行。可以在终端里运行 opsassist 重试，或用 ask --yes 允许一次。"
		enTail = "needs your confirmation, and this client could not ask you (stdin is not a terminal, say), so it did not run. Retry from a terminal with opsassist, or allow it once with ask --yes."
	)
	switch tool {
	case "command_executor":
		return fmt.Sprintf(pickLang(zh, "执行命令 %[1]s（%[2]s）"+zhTail, "Running %[1]s (%[2]s) "+enTail), subject, tool)
	case "file_download":
		return fmt.Sprintf(pickLang(zh, "下载 %[1]s（%[2]s）"+zhTail, "The download of %[1]s (%[2]s) "+enTail), subject, tool)
	}
	return ""
}

func pickLang(zh bool, z, e string) string {
	if zh {
		return z
	}
	return e
}

// FailureSubject is the file or command a failed call was refused
// about: the first quoted string of its error, else the call's file
// argument or its command line.
func FailureSubject(errText string, args map[string]any) string {
	if q := reErrQuoted.FindString(errText); q != "" {
		if s, err := strconv.Unquote(q); err == nil && s != "" {
			return s
		}
	}
	for _, k := range []string{"file_path", "path", "file"} {
		if p, ok := args[k].(string); ok && p != "" {
			return p
		}
	}
	if c, ok := args["command"].(string); ok && c != "" {
		argv := []string{c}
		if as, ok := args["args"].([]any); ok {
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

// CleanReason is a tool's error as the user may read it: without the
// registry's and packages' prefixes, and of a reason written in both
// languages ("…不会询问。… is never read.") the half in the user's
// language.
func CleanReason(zh bool, s string) string {
	s = strings.TrimSpace(reDeniedBy.ReplaceAllString(strings.TrimSpace(s), ""))
	s = rePkgPrefix.ReplaceAllString(s, "")
	if zhPart, enPart, ok := splitLanguages(s); ok {
		if zh {
			return zhPart
		}
		return enPart
	}
	if i := strings.LastIndex(s, "。"); i >= 0 && hasHan(s[:i]) && !hasHan(s[i:]) {
		// A reason in Chinese alone has no English half: "" in English,
		// and the code's text stands alone.
		if zh {
			return s[:i+len("。")]
		}
		return strings.TrimSpace(s[i+len("。"):])
	}
	return s
}

// splitLanguages splits a text written in both languages, Chinese first
// ("文件太大：报告.pdf。 File too large: 报告.pdf"), at the first full
// stop after Chinese that a capital letter follows; the English half may
// quote Chinese names. ok is false for any other text.
func splitLanguages(s string) (zhPart, enPart string, ok bool) {
	loc := reLangSplit.FindStringIndex(s)
	if loc == nil || !hasHan(s[:loc[0]]) {
		return "", "", false
	}
	end := loc[0] + len("。")
	en := strings.TrimSpace(s[end:])
	if en == "" {
		return "", "", false
	}
	return s[:end], en, true
}

// OneLanguage is one half of a text written in both languages, Chinese
// first ("文件太大：…。 File too large: …"): the Chinese when zh, else the
// English. Other texts, a text in one language among them, are returned
// as they are.
func OneLanguage(zh bool, s string) string {
	if zhPart, enPart, ok := splitLanguages(s); ok {
		if zh {
			return zhPart
		}
		return enPart
	}
	return s
}

// hasHan reports whether s holds a Chinese character (pathtext.IsHan).
func hasHan(s string) bool { return strings.IndexFunc(s, pathtext.IsHan) >= 0 }
