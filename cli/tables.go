package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"opsassist/client"
)

// The REPL renders the conversation and model lists itself, from the
// RESULT data, in the CLI's language: the server's text for plain NPLT
// clients says everything in both.

// sessionsText renders a session list (q: the search, "" for all).
func (c *CLI) sessionsText(list client.SessionList, q string) string {
	say := c.say
	var b strings.Builder
	if q == "" {
		b.WriteString(say("=== 对话列表 ===\n", "=== Conversations ===\n"))
		if len(list.Sessions) == 0 {
			b.WriteString(say("（还没有对话）\n", "(no conversations yet)\n"))
		}
	} else {
		fmt.Fprintf(&b, say("=== 对话列表：%q ===\n", "=== Conversations: %q ===\n"), q)
		if len(list.Sessions) == 0 {
			b.WriteString(say("（没有匹配的对话）\n", "(no matching conversations)\n"))
		}
	}
	for i, s := range list.Sessions {
		mark := ""
		if s.SessionID == list.Current {
			mark = say("（当前）", " (current)")
		}
		fmt.Fprintf(&b, "%d. [%s] %s%s\n", i+1, shortID(s.SessionID), oneLine(c.titleText(s.Title), 60), mark)
		fmt.Fprintf(&b, say("   消息 %d，上传 %d", "   messages: %d, uploads: %d"), s.Messages, s.Uploads)
		if s.UpdatedAt != "" {
			fmt.Fprintf(&b, say("，最后访问 %s", ", updated: %s"), localTime(s.UpdatedAt))
		}
		b.WriteString("\n")
	}
	if list.Next != "" {
		b.WriteString(say("（还有更多）\n", "(more)\n"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// titleText is a conversation's title as lists and results show it:
// an untitled one (no message yet, never renamed) is "（无标题）" /
// "(untitled)", never blank.
func (c *CLI) titleText(title string) string {
	if title == "" {
		return c.say("（无标题）", "(untitled)")
	}
	return title
}

// modelDetail is one model of a KindModels result's "details".
type modelDetail struct {
	Name      string `json:"name"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	BaseURL   string `json:"base_url"`
	Reachable bool   `json:"reachable"`
	Reason    string `json:"reason"`
	CheckedAt string `json:"checked_at"`
}

// modelsResult is a KindModels result's data, with the details newer
// servers add.
type modelsResult struct {
	client.ModelList
	Details []modelDetail `json:"details"`
}

// modelsText renders the model list; without details (an older server)
// the names only.
func (r *repl) modelsText(m modelsResult) string {
	say := r.cli.say
	var b strings.Builder
	b.WriteString(say("可用模型：\n", "Models:\n"))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if len(m.Details) == 0 {
		for _, name := range m.Models {
			fmt.Fprintf(tw, "  %s\t%s\n", mark(name == m.Current), name)
		}
	} else {
		// ASCII heads: tabwriter counts runes, so wide (CJK) heads
		// would break the alignment.
		fmt.Fprintln(tw, "  \tNAME\tPROVIDER\tMODEL\tBASE URL\tSTATUS")
		for _, d := range m.Details {
			status := say("可达", "reachable")
			switch {
			case d.Reachable:
			case d.CheckedAt == "":
				status = say("检测中", "checking")
			default:
				status = say("不可达：", "unreachable: ") + d.Reason
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", mark(d.Name == m.Current), d.Name, d.Provider, orDash(d.Model), orDash(d.BaseURL), status)
		}
	}
	tw.Flush()
	return strings.TrimRight(b.String(), "\n")
}

func mark(on bool) string {
	if on {
		return "*"
	}
	return ""
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// localTime shows an RFC 3339 time from the server in local time, or s
// as it is.
func localTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.Local().Format(time.DateTime)
}
