package cli

import (
	"encoding/json"
	"strings"

	"opsassist/client"
)

// The server's text of a conversation's history (npltserver's history):
// historyHead, then for each user message and each assistant message
// with text or cancelled "\n" + label + body + end, where end is
// historyCancelled for a cancelled answer and "\n" otherwise, or
// historyEmpty when there is none; then one "\n📎 …\n" line per upload.
const (
	historyHead      = "=== 对话历史 History ===\n"
	historyUser      = "用户 user: "
	historyAssistant = "助手 assistant: "
	historyCancelled = "（已取消 cancelled）\n"
	historyEmpty     = "(空 empty)\n"
	// historyCut ends a message the RESULT's data cut (npltserver's
	// cutBytes); the text has it whole.
	historyCut = "…[truncated]"
	// historyUpload starts an upload's line.
	historyUpload = "\n📎 "
)

// historyData is the part of a history RESULT's data historyText reads.
type historyData struct {
	Messages []struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		Cancelled bool   `json:"cancelled"`
	} `json:"messages"`
	Truncated    bool `json:"truncated"`
	UploadsTotal int  `json:"uploads_total"`
}

// historyEntry is one message of a history, found with the RESULT's
// data: its role and its body, verbatim.
type historyEntry struct {
	assistant, cancelled bool
	body                 string
}

// label is the entry's role label in the CLI's language.
func (e historyEntry) label(zh bool) string {
	if e.assistant {
		return pick(zh, "助手：", "assistant: ")
	}
	return pick(zh, "用户：", "user: ")
}

// historyText is the server's history text with the labels it wrote in
// the CLI's language and every message body verbatim. The text carries
// every message in full (the data is cut to one frame), so the labels
// are found in it with the data: each message's body starts with its
// content there. A body the data has whole is taken by its length, never
// searched for labels, so one that holds "用户 user: " at a line start
// stays as it was written. A body the data cut ends where the next
// message's label and the start of its content follow; when that
// sequence occurs more than once in the rest of the text (the cut body
// may quote it), which one ends the body cannot be told, and the text is
// treated as one the data does not describe. Such a text (also when the
// data lost older messages, or an older server's) keeps its labels as
// the server wrote them; only the heading is said in the CLI's language.
func (c *CLI) historyText(res client.Result) string {
	zh := c.chinese()
	head := pick(zh, "=== 对话历史 ===\n", "=== History ===\n")
	text, ok := strings.CutPrefix(res.Text, historyHead)
	if !ok {
		return strings.TrimRight(res.Text, "\n")
	}
	entries, uploads, ok := historyEntries(res.Data, text)
	if !ok {
		return strings.TrimRight(head+text, "\n")
	}
	var b strings.Builder
	b.WriteString(head)
	if len(entries) == 0 {
		b.WriteString(pick(zh, "（空）\n", "(empty)\n"))
	}
	for _, e := range entries {
		b.WriteString("\n" + e.label(zh) + e.body)
		if e.cancelled {
			b.WriteString(pick(zh, "（已取消）\n", " (cancelled)\n"))
		} else {
			b.WriteString("\n")
		}
	}
	b.WriteString(uploads)
	return strings.TrimRight(b.String(), "\n")
}

// historyEntries splits text, the history after its heading, into its
// messages and the uploads' lines, found with data; ok is false when
// data does not describe text exactly.
func historyEntries(data json.RawMessage, text string) (entries []historyEntry, uploads string, ok bool) {
	var d historyData
	if json.Unmarshal(data, &d) != nil || d.Truncated {
		return nil, "", false
	}
	// The uploads' lines end the text, one for each of uploads_total.
	end := len(text)
	for range d.UploadsTotal {
		i := strings.LastIndex(text[:end], historyUpload)
		if i < 0 {
			return nil, "", false
		}
		end = i
	}
	msgs, uploads := text[:end], text[end:]
	type shown struct{ label, prefix, end string }
	var want []shown
	for _, m := range d.Messages {
		switch {
		case m.Role == "user":
			want = append(want, shown{historyUser, m.Content, "\n"})
		case m.Role == "assistant" && m.Cancelled:
			want = append(want, shown{historyAssistant, m.Content, historyCancelled})
		case m.Role == "assistant" && m.Content != "":
			want = append(want, shown{historyAssistant, m.Content, "\n"})
		}
	}
	if len(want) == 0 {
		return nil, uploads, msgs == historyEmpty
	}
	cur := 0
	for i, w := range want {
		opening := "\n" + w.label
		if !strings.HasPrefix(msgs[cur:], opening) {
			return nil, "", false
		}
		cur += len(opening)
		prefix, cut := strings.CutSuffix(w.prefix, historyCut)
		if !strings.HasPrefix(msgs[cur:], prefix) {
			return nil, "", false
		}
		n := len(prefix) // the body's length, when the data has it whole
		switch {
		case !cut:
		case i == len(want)-1:
			// The last body runs to the uploads.
			n = len(msgs) - cur - len(w.end)
		default:
			next := want[i+1]
			nextPrefix, _ := strings.CutSuffix(next.prefix, historyCut)
			rest, sep := msgs[cur+len(prefix):], w.end+"\n"+next.label+nextPrefix
			j := strings.Index(rest, sep)
			if j < 0 || strings.Contains(rest[j+1:], sep) {
				// None, or several: the cut body may hold the next
				// message's opening, and which one ends it is unknown.
				return nil, "", false
			}
			n = len(prefix) + j
		}
		if n < len(prefix) || !strings.HasPrefix(msgs[cur+n:], w.end) {
			return nil, "", false
		}
		entries = append(entries, historyEntry{assistant: w.label == historyAssistant, cancelled: w.end == historyCancelled, body: msgs[cur : cur+n]})
		cur += n + len(w.end)
	}
	if cur != len(msgs) {
		return nil, "", false
	}
	return entries, uploads, true
}
