package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"opsassist/client"
	"opsassist/internal/bytesize"
)

// reHistoryUpload is the server's line for an upload in a history text
// (transport/npltserver: "📎 NAME (file_id: ID, N bytes)").
var reHistoryUpload = regexp.MustCompile(`^📎 (.*) \(file_id: ([^,]*), (\d+) bytes\)$`)

// historyView is /history as the REPL shows it: historyText (labels in
// the CLI's language, bodies verbatim), each upload on a line in the
// CLI's language with its size readable ("附件：app.log（1.2 MiB，file_id
// …）"), and, when answers are rendered (CLI.markdown: a terminal,
// --render, NO_COLOR), each message's Markdown rendered as live answers
// are, under its role label, instead of its source. Messages are found
// as historyText finds them, with the RESULT's data; a history the data
// does not describe is shown as historyText gives it, its uploads
// rewritten.
func (r *repl) historyView(res client.Result) string {
	zh := r.cli.chinese()
	render, colour := r.cli.markdown(r.cfg, r.outTTY)
	text, ok := strings.CutPrefix(res.Text, historyHead)
	var entries []historyEntry
	uploads := ""
	if ok {
		entries, uploads, ok = historyEntries(res.Data, text)
	}
	if !ok || !render {
		return historyUploads(zh, r.cli.historyText(res))
	}
	var b strings.Builder
	b.WriteString(pick(zh, "=== 对话历史 ===\n", "=== History ===\n"))
	if len(entries) == 0 {
		b.WriteString(pick(zh, "（空）\n", "(empty)\n"))
	}
	for _, e := range entries {
		b.WriteString("\n" + strings.TrimSpace(e.label(zh)) + "\n")
		md := newMDRenderer(&b, colour)
		md.Write(strings.TrimRight(e.body, "\n") + "\n")
		md.Flush()
		if e.cancelled {
			b.WriteString(pick(zh, "（已取消）\n", "(cancelled)\n"))
		}
	}
	b.WriteString(historyUploads(zh, uploads))
	return strings.TrimRight(b.String(), "\n")
}

// historyUploads rewrites the server's upload lines of a history text,
// each after a blank line, in the CLI's language.
func historyUploads(zh bool, text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if i == 0 || lines[i-1] != "" {
			continue // uploads follow a blank line
		}
		if m := reHistoryUpload.FindStringSubmatch(line); m != nil {
			lines[i] = uploadLine(zh, m[1], m[2], m[3])
		}
	}
	return strings.Join(lines, "\n")
}

// uploadLine is a history's upload in the CLI's language, its size
// readable; size is the server's byte count.
func uploadLine(zh bool, name, fileID, size string) string {
	n, err := strconv.ParseInt(size, 10, 64)
	readable := size + " B"
	if err == nil {
		readable = bytesize.Format(n)
	}
	return fmt.Sprintf(pick(zh, "附件：%s（%s，file_id：%s）", "attachment: %s (%s, file_id: %s)"), name, readable, fileID)
}
