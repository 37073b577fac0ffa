package chat

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"opsassist/storage/history"
)

// transcriptToolRunes bounds a tool call's arguments and result in a
// Markdown transcript: tool calls are summarised, not reproduced.
const transcriptToolRunes = 200

// Transcript renders a conversation as Markdown: its title, then each
// user and assistant message in order, tool calls summarised on one line
// each (name, arguments and the start of the result, cut to 200
// characters), then the uploads. Headings are in Chinese when the user
// wrote Chinese. Message text is reproduced as written.
func Transcript(sum history.Summary, msgs []history.Message, ups []history.Upload) string {
	var b strings.Builder
	writeTranscript(&b, sum, msgs, ups)
	return b.String()
}

// textWriter is what a transcript is written to: a strings.Builder, or
// an export's bounded buffer (exportBuf), which drops what passes its
// limit.
type textWriter interface {
	io.Writer
	io.StringWriter
}

// writeTranscript writes Transcript's text to b.
func writeTranscript(b textWriter, sum history.Summary, msgs []history.Message, ups []history.Upload) {
	zh := chineseConversation(msgs)
	say := func(en, cn string) string {
		if zh {
			return cn
		}
		return en
	}
	title := sum.Title
	if title == "" {
		title = say("New conversation", "新对话")
	}
	fmt.Fprintf(b, "# %s\n\n", oneLine(title))
	fmt.Fprintf(b, "%s `%s` · %s %s\n", say("Conversation", "对话"), sum.ID, say("started", "开始于"), sum.CreatedAt.UTC().Format(time.DateTime+" UTC"))
	results := make(map[string]history.Message)
	for _, m := range msgs {
		if m.Role == "tool" {
			results[m.ToolCallID] = m
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case "user":
			fmt.Fprintf(b, "\n## %s\n\n%s\n", say("User", "用户"), strings.TrimRight(m.Content, "\n"))
		case "assistant":
			if len(m.ToolCalls) == 0 && m.Content == "" {
				continue
			}
			fmt.Fprintf(b, "\n## %s\n\n", say("Assistant", "助手"))
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(b, "- %s %s %s", say("tool", "工具"), codeSpan(tc.Name), codeSpan(cutRunes(oneLine(tc.Arguments), transcriptToolRunes)))
				if r, ok := results[tc.ID]; ok {
					fmt.Fprintf(b, " → %s", codeSpan(cutRunes(oneLine(r.Content), transcriptToolRunes)))
				}
				b.WriteString("\n")
			}
			if len(m.ToolCalls) > 0 && m.Content != "" {
				b.WriteString("\n")
			}
			if m.Content != "" {
				b.WriteString(strings.TrimRight(m.Content, "\n") + "\n")
			}
			if m.Cancelled {
				fmt.Fprintf(b, "\n_%s_\n", say("(cancelled)", "（已取消）"))
			}
		}
	}
	if len(ups) > 0 {
		fmt.Fprintf(b, "\n## %s\n\n", say("Uploads", "上传的文件"))
		for _, u := range ups {
			fmt.Fprintf(b, "- %s (%d B, `%s`)\n", oneLine(u.Filename), u.Size, u.FileID)
		}
	}
}

// oneLine joins s's lines with spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// codeSpan makes s a Markdown code span; backticks inside become '.
func codeSpan(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// cutRunes shortens s to n runes, marking the cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
