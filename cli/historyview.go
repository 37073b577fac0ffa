package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"opsassist/internal/bytesize"
)

// reHistoryUpload is the server's line for an upload in a history text
// (transport/npltserver: "📎 NAME (file_id: ID, N bytes)").
var reHistoryUpload = regexp.MustCompile(`^📎 (.*) \(file_id: ([^,]*), (\d+) bytes\)$`)

// historyView is /history's text (historyText: labels in the CLI's
// language) as the REPL shows it: each upload on a line in the CLI's
// language with its size readable ("附件：app.log（1.2 MiB，file_id …）");
// when answers are rendered (CLI.markdown: a terminal, --render,
// NO_COLOR) each message's Markdown is rendered as live answers are,
// under its role label, instead of its source.
func (r *repl) historyView(text string) string {
	zh := r.cli.chinese()
	render, colour := r.cli.markdown(r.cfg, r.outTTY)
	labels := []string{pick(zh, "用户：", "user: "), pick(zh, "助手：", "assistant: ")}
	var (
		b    strings.Builder
		body []string // the current message's lines, when rendering
	)
	flush := func() {
		if body == nil {
			return
		}
		// A message's blank last lines separate it from the next one.
		n := len(body)
		for n > 0 && body[n-1] == "" {
			n--
		}
		md := newMDRenderer(&b, colour)
		md.Write(strings.Join(body[:n], "\n") + "\n")
		md.Flush()
		b.WriteString(strings.Repeat("\n", len(body)-n))
		body = nil
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		atStart := i > 0 && lines[i-1] == "" // messages and uploads follow a blank line
		if m := reHistoryUpload.FindStringSubmatch(line); m != nil && atStart {
			flush()
			b.WriteString(uploadLine(zh, m[1], m[2], m[3]) + "\n")
			continue
		}
		if !render {
			b.WriteString(line + "\n")
			continue
		}
		if label, rest, ok := cutLabel(line, labels); ok && atStart {
			flush()
			b.WriteString(strings.TrimSpace(label) + "\n")
			body = []string{rest}
			continue
		}
		if body != nil {
			body = append(body, line)
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return strings.TrimRight(b.String(), "\n")
}

// cutLabel splits a line starting with one of labels.
func cutLabel(line string, labels []string) (label, rest string, ok bool) {
	for _, l := range labels {
		if after, found := strings.CutPrefix(line, l); found {
			return l, after, true
		}
	}
	return "", "", false
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
