package builtin

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"opsassist/internal/runecut"
)

var (
	// reErrorQuestion asks what went wrong in a log: "有什么错误？",
	// "any errors in this log?", "分析一下日志里的错误".
	reErrorQuestion = compile(`(?i)错误|报错|出错|异常|告警|警告|失败|\berrors?\b|\bwarnings?\b|\bexceptions?\b|\bfailures?\b|\bwent wrong\b`)
	// reSystemLog names the machine's own logs, which a command reads,
	// not an upload.
	reSystemLog = compile(`(?i)系统|服务器|内核|syslog|journal|dmesg|kernel|\bsystem\b|\bserver\b|/`)
	// reErrorLevel and reWarnLevel find a log line's severity: a level
	// word, an exception or error class ("java.lang.OutOfMemoryError",
	// "NullPointerException"), or what the kernel reports (out of
	// memory, a segfault, a full disk).
	reErrorLevel = compile(`(?i)\b(fatal|panic|critical|crit|severe|error|err|exception|failed|failure)\b|(?-i:[a-z](Exception|Error))\b|Traceback \(most recent call last\)|\bout of memory\b|\binvoked oom-killer\b|\bsegfault\b|\bno space left on device\b`)
	reWarnLevel  = compile(`(?i)\b(warn|warning)\b`)
	// reQuietLevel is a line's level word for a line that reports no
	// problem, when it comes before any error word: "INFO retry after
	// error" is information.
	reQuietLevel = regexp.MustCompile(`\b(TRACE|DEBUG|INFO|NOTICE|trace|debug|info|notice)\b`)
	// reStackLine is a line of a stack trace or of a chained cause:
	// part of the error above it, not an error of its own.
	reStackLine = regexp.MustCompile(`^(at |\.\.\. \d+ (more|common frames)|Caused by:|goroutine \d+ \[|File "|\[signal )`)
	// reTraceback starts a Python traceback; reChainedTrace joins two
	// ("During handling of the above exception, another exception
	// occurred:").
	reTraceback    = regexp.MustCompile(`^Traceback \(most recent call last\):?$`)
	reChainedTrace = regexp.MustCompile(`^(During handling of the above exception|The above exception was the direct cause)`)
)

// errorsIntent is a question about the errors in the conversation's
// upload ("有什么错误？" after `printf … | opsassist ask`): it reads the
// newest upload, and the answer groups and counts its error lines
// (describeErrors). Without uploads, or about the machine's own logs,
// it is not this intent.
func errorsIntent(text string, hasUploads bool) (Intent, bool) {
	if !hasUploads || !reErrorQuestion.MatchString(text) || reSystemLog.MatchString(text) {
		return Intent{}, false
	}
	return Intent{Kind: "upload_ref", Tool: "file_upload", Args: map[string]any{"action": "read", "reference": "this"}}, true
}

// uploadQuestionIntent is a reference to an upload (uploadRefIntent) or
// an errors question about the newest one (errorsIntent). An errors
// question about "this log" reads the newest upload whatever its name:
// `… | opsassist ask "any errors in this log?"` uploads stdin.txt.
func uploadQuestionIntent(text string, hasUploads bool) (Intent, bool) {
	if in, ok := uploadRefIntent(text); ok {
		if _, ok := errorsIntent(text, hasUploads); ok && in.Args["reference"] == "this" && in.Args["action"] == "read" {
			delete(in.Args, "file_type")
		}
		return in, true
	}
	return errorsIntent(text, hasUploads)
}

// errorKind is one kind of error or warning line and how often it came.
type errorKind struct {
	line  string // the first line of the kind, as written
	count int
	warn  bool
	first int
}

// maxKinds is how many kinds an answer lists, and maxExampleBytes how
// much of a kind's example line it shows.
const (
	maxKinds        = 10
	maxExampleBytes = 240
)

// describeErrors answers an errors question from a file's content: its
// error lines, then its warnings, grouped by kind (errorKey: timestamps,
// ids, hex, addresses, paths and numbers aside) and counted, the most
// frequent first, each with its first line as the example. A stack
// trace's lines belong to the error above them.
//
// In a configuration file (configFile) comment lines and inline " #"
// comments are not read: "level: info  # debug, info, warn or error"
// documents a setting, it is no error.
func describeErrors(zh bool, name, content string, truncated bool) string {
	t := lang(zh)
	kinds := map[string]*errorKind{}
	errs, warns := 0, 0
	config := configFile(name)
	// A Python traceback is one error: its "Traceback (most recent call
	// last):" line, its frames and its exception line ("ValueError: x",
	// the kind and example). After an error line (logging.exception) it
	// is that error's.
	inTrace, traceOwned, chained, lastError := false, false, false, false
	for i, line := range strings.Split(content, "\n") {
		l := strings.TrimSpace(line)
		if config {
			l = withoutComment(l)
		}
		if l == "" || !config && (line[0] == ' ' || line[0] == '\t') || reStackLine.MatchString(l) {
			continue // a stack trace belongs to the error above it
		}
		if !config && reChainedTrace.MatchString(l) {
			chained = true
			continue
		}
		if !config && reTraceback.MatchString(l) {
			inTrace, traceOwned, chained = true, lastError || chained, false
			continue
		}
		sev, key, example := severity(l)
		if inTrace {
			// The traceback's exception line.
			inTrace = false
			if traceOwned {
				continue
			}
			if sev != sevError {
				sev, key, example = sevError, maskLine(l), l
			}
			lastError = false // the traceback ends here
		} else {
			lastError = sev == sevError
		}
		switch sev {
		case sevError:
			errs++
		case sevWarn:
			warns++
		default:
			continue
		}
		if k := kinds[key]; k != nil {
			k.count++
			continue
		}
		kinds[key] = &errorKind{line: capExample(shownLine(example)), count: 1, warn: sev == sevWarn, first: i}
	}
	if inTrace && !traceOwned {
		// A traceback cut before its exception line (a long file read
		// in part) is still an error.
		errs++
		const tb = "Traceback (most recent call last):"
		if k := kinds[tb]; k != nil {
			k.count++
		} else {
			kinds[tb] = &errorKind{line: tb, count: 1, first: strings.Count(content, "\n")}
		}
	}
	if len(kinds) == 0 {
		return fmt.Sprintf(t("%s 里没有找到错误或警告。", "No errors or warnings found in %s."), name)
	}
	list := make([]*errorKind, 0, len(kinds))
	for _, k := range kinds {
		list = append(list, k)
	}
	slices.SortFunc(list, func(a, b *errorKind) int {
		switch {
		case a.warn != b.warn:
			if a.warn {
				return 1
			}
			return -1
		case a.count != b.count:
			return b.count - a.count
		}
		return a.first - b.first
	})
	var b strings.Builder
	if zh {
		fmt.Fprintf(&b, "在 %s 中找到 %d 条错误、%d 条警告（按出现次数排列）：", name, errs, warns)
	} else {
		fmt.Fprintf(&b, "Found %s and %s in %s (most frequent first):", plural(errs, "error"), plural(warns, "warning"), name)
	}
	shown := make([]string, 0, min(len(list), maxKinds))
	for _, k := range list[:min(len(list), maxKinds)] {
		shown = append(shown, fmt.Sprintf("%d × %s", k.count, k.line))
	}
	b.WriteString("\n" + codeBlock(strings.Join(shown, "\n")))
	if n := len(list) - maxKinds; n > 0 {
		fmt.Fprintf(&b, t("\n（另有 %d 种未列出）", "\n(%d more kinds not shown)"), n)
	}
	if truncated {
		b.WriteString(t("\n（文件较长，只分析了开头部分）", "\n(long file: only its beginning was read)"))
	}
	return b.String()
}

// capExample is an example line at most maxExampleBytes long, cut at a
// rune boundary with "…".
func capExample(l string) string {
	if len(l) <= maxExampleBytes {
		return l
	}
	return runecut.Head(l, maxExampleBytes) + "…"
}

// configExts are the extensions of configuration files, whose comments
// describe settings rather than report what happened.
var configExts = map[string]bool{
	".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".conf": true,
	".cfg": true, ".properties": true, ".env": true,
}

// configFile reports whether name is a configuration file by its
// extension (".env" itself counts).
func configFile(name string) bool {
	return configExts[strings.ToLower(path.Ext(name))]
}

// withoutComment is a trimmed configuration line without its comment: a
// line starting with "#", "//" or ";" is all comment, and text after an
// inline " #" is too.
func withoutComment(l string) string {
	if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") || strings.HasPrefix(l, ";") {
		return ""
	}
	if i := strings.Index(l, " #"); i >= 0 {
		l = strings.TrimSpace(l[:i])
	}
	return l
}

// plural is "1 error", "2 errors".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
