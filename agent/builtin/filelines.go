package builtin

import (
	"fmt"
	"strconv"
	"strings"
)

// Bounds of a lines answer.
const (
	// defaultLinesShown is how many lines "the last lines" shows when
	// the question gives no count, as tail and head do.
	defaultLinesShown = 10
	// maxLinesShown caps the lines one answer quotes; a larger count is
	// cut to it, and the answer says so.
	maxLinesShown = 200
)

var (
	// reLineWord names lines: "3 行", "最后一行", "几行", "last lines" —
	// not the 行 of 运行 or 执行.
	reLineWord = compile(`(?i)(\d|[一二两三四五六七八九十几])\s*行|\blines?\b`)
	// reLinesVerb is tail or head used as the verb: "tail the log".
	reLinesVerb = compile(`(?i)^\s*(please\s+)?(tail|head)\b`)
)

// linesWanted reads a question for the last or first lines of a file
// ("显示我上传的日志的最后 3 行", "tail the log, last 3 lines", "前 5 行",
// "the first line"): tail is true for the last lines, n how many (the
// question's count, else defaultLinesShown). ok is false when the
// question asks for no lines. The words for the last and the first
// lines are the planner's own (reTail, reHead; the count: lineCount), so
// a question read as a tail is answered as one.
func linesWanted(q string) (tail bool, n int, ok bool) {
	tailed, headed := reTail.MatchString(q), reHead.MatchString(q)
	if !tailed && !headed {
		return false, 0, false
	}
	count := lineCount(q)
	if count == "" && !reLineWord.MatchString(q) && !reLinesVerb.MatchString(q) {
		return false, 0, false
	}
	n = defaultLinesShown
	if v, err := strconv.Atoi(count); err == nil && v > 0 {
		n = v
	} else if count == "" && singleLine(q) {
		n = 1
	}
	// Both words ("the first line of the end"): the earlier one rules,
	// as a person reads it.
	if tailed && headed {
		tailed = reTail.FindStringIndex(q)[0] <= reHead.FindStringIndex(q)[0]
	}
	return tailed, n, true
}

// singleLine reports whether a question asks for one line without a
// count: "the last line", "最后一行".
func singleLine(q string) bool {
	l := strings.ToLower(q)
	return strings.Contains(l, "一行") || strings.Contains(l, " line") && !strings.Contains(l, " lines")
}

// linesAnswer shows the last (tail) or first n lines of a file read for
// a question, numbered by their place in the file, its secrets hidden
// (quotedBlock). A read cut at the tool's budget (truncated) holds only
// the file's beginning: its last lines are not what was read, and the
// answer says so instead of showing the wrong ones.
func linesAnswer(zh bool, name, content string, truncated, tail bool, n int) string {
	t := lang(zh)
	text := strings.TrimRight(content, "\n")
	if text == "" {
		return fmt.Sprintf(t("%s 是空文件。", "%s is empty."), name)
	}
	lines := strings.Split(text, "\n")
	if tail && truncated {
		return fmt.Sprintf(t("%s 太长，只读到了开头部分，无法显示它的最后 %d 行。可以只上传文件的末尾部分（如 tail -n %d 的输出）再问。",
			"%s is too long: only its beginning was read, so its last %d lines cannot be shown. Upload its end (the output of tail -n %d) and ask again."), name, n, n)
	}
	capped := n > maxLinesShown
	n = min(n, maxLinesShown)
	first, last := 0, min(n, len(lines)) // [first, last)
	if tail {
		first, last = max(0, len(lines)-n), len(lines)
	}
	shown := make([]string, 0, last-first)
	for i := first; i < last; i++ {
		shown = append(shown, fmt.Sprintf("%d: %s", i+1, lines[i]))
	}
	total := fmt.Sprintf(t("共 %d 行", "of %d"), len(lines))
	if truncated {
		total = fmt.Sprintf(t("已读取的前 %d 行", "of the first %d read"), len(lines))
	}
	var head string
	switch {
	case len(shown) == len(lines) && !truncated:
		head = fmt.Sprintf(t("%s 只有 %d 行，全部如下：", "%s has only %d line(s), all shown:"), name, len(lines))
	case zh && tail:
		head = fmt.Sprintf("%s 的最后 %d 行（%s）：", name, len(shown), total)
	case zh:
		head = fmt.Sprintf("%s 的前 %d 行（%s）：", name, len(shown), total)
	case len(shown) == 1:
		head = fmt.Sprintf("The %s line of %s (%s):", map[bool]string{true: "last", false: "first"}[tail], name, total)
	case tail:
		head = fmt.Sprintf("The last %d lines of %s (%s):", len(shown), name, total)
	default:
		head = fmt.Sprintf("The first %d lines of %s (%s):", len(shown), name, total)
	}
	s := head + "\n" + quotedBlock(shown)
	if capped {
		s += fmt.Sprintf(t("\n（一次最多显示 %d 行）", "\n(at most %d lines are shown at once)"), maxLinesShown)
	}
	return s
}
