package npltserver

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"opsassist/chat"
)

// modelTable renders the model list as the REPL's /model shows it: one
// row per model (current one marked *) with provider, model id, base
// URL and the cached reachability. Column heads are ASCII: tabwriter
// counts runes, so wide (CJK) heads would break the alignment.
func modelTable(details []chat.ModelInfo, current string) string {
	var b strings.Builder
	b.WriteString("可用模型 Models:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  \tNAME\tPROVIDER\tMODEL\tBASE URL\t状态 STATUS")
	for _, d := range details {
		mark := ""
		if d.Name == current {
			mark = "*"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", mark, d.Name, d.Provider, orDash(d.Model), orDash(d.BaseURL), reachText(d))
	}
	tw.Flush()
	return strings.TrimRight(b.String(), "\n")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// reachText says what the last probe found.
func reachText(d chat.ModelInfo) string {
	switch {
	case d.Reachable:
		return "可达 reachable"
	case d.CheckedAt.IsZero():
		return "检测中 checking"
	default:
		return "不可达 unreachable: " + d.Reason
	}
}
