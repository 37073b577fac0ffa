package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"

	"opsassist/chat"
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

// modelsText renders the model list, fitted to the terminal's width
// (modelsTable); without details (an older server) the names only.
func (r *repl) modelsText(m modelsResult) string {
	return r.cli.modelsTable(m, r.width())
}

// modelsTable renders the model list in the CLI's language, its heads
// too. width > 0 is the terminal's: columns are dropped until the rows
// fit — the base URL first, then the provider — and a status still too
// long is cut with "…"; 0 keeps every column (output that is not a
// terminal). Column widths count Chinese characters double.
func (c *CLI) modelsTable(m modelsResult, width int) string {
	say := c.say
	var b strings.Builder
	b.WriteString(say("可用模型：\n", "Models:\n"))
	if len(m.Details) == 0 {
		for _, name := range m.Models {
			fmt.Fprintf(&b, "  %-2s %s\n", mark(name == m.Current), name)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	const (
		colName = iota
		colProvider
		colModel
		colURL
		colStatus
	)
	rows := [][]string{{"", say("名称", "NAME"), say("提供方", "PROVIDER"), say("模型", "MODEL"), say("地址", "BASE URL"), say("状态", "STATUS")}}
	for _, d := range m.Details {
		status := say("可达", "reachable")
		switch {
		case d.Reachable:
		case d.CheckedAt == "":
			status = say("检测中", "checking")
		default:
			status = say("不可达：", "unreachable: ") + probeReasonText(c.chinese(), d.Reason)
		}
		rows = append(rows, []string{mark(d.Name == m.Current), d.Name, d.Provider, orDash(d.Model), orDash(d.BaseURL), status})
	}
	// Column 0 is the current mark; the others are shifted by one.
	keep := []int{0, colName + 1, colProvider + 1, colModel + 1, colURL + 1, colStatus + 1}
	// Which columns fit is decided with statuses cut to statusFit: a
	// long reason is cut rather than costing the other columns.
	fit := make([][]string, len(rows))
	for i, row := range rows {
		fit[i] = slices.Clone(row)
		fit[i][colStatus+1] = runewidth.Truncate(row[colStatus+1], statusFit, "…")
	}
	for _, drop := range []int{colURL + 1, colProvider + 1} {
		if width <= 0 || tableWidth(fit, keep) <= width {
			break
		}
		keep = slices.DeleteFunc(keep, func(k int) bool { return k == drop })
	}
	for _, line := range alignRows(rows, keep) {
		if width > 0 && runewidth.StringWidth(line) > width {
			line = runewidth.Truncate(line, width, "…")
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// statusFit is the width of a status the model table keeps its columns
// for ("unreachable: connection refused" is 31).
const statusFit = 32

// tableGap is the space between two columns of alignRows.
const tableGap = 2

// alignRows pads the cells of the columns keep (in that order) to each
// column's widest cell, counting Chinese characters double, with two
// spaces of indent and tableGap between columns.
func alignRows(rows [][]string, keep []int) []string {
	widths := make(map[int]int, len(keep))
	for _, row := range rows {
		for _, k := range keep {
			widths[k] = max(widths[k], runewidth.StringWidth(row[k]))
		}
	}
	out := make([]string, len(rows))
	for i, row := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for j, k := range keep {
			b.WriteString(row[k])
			if j < len(keep)-1 {
				b.WriteString(strings.Repeat(" ", widths[k]-runewidth.StringWidth(row[k])+tableGap))
			}
		}
		out[i] = b.String()
	}
	return out
}

// tableWidth is the width of alignRows' widest line.
func tableWidth(rows [][]string, keep []int) int {
	w := 0
	for _, line := range alignRows(rows, keep) {
		w = max(w, runewidth.StringWidth(strings.TrimRight(line, " ")))
	}
	return w
}

// probeReasonText is a model's unreachable reason in the user's
// language, by the chat core's one mapping.
func probeReasonText(zh bool, reason string) string {
	return chat.ProbeReasonText(zh, reason)
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
