package cli

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// renderTable renders a Markdown table's lines (each starting with '|')
// as a box with aligned columns; widths count East Asian wide runes as
// two columns. Lines without a delimiter row as their second are not a
// table and come back as paragraph lines.
func renderTable(lines []string, st mdStyle) []string {
	if len(lines) < 2 || !isDelimiterRow(lines[1]) {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = renderInline(l, st)
		}
		return out
	}
	align := splitRow(lines[1])
	rows := [][]string{splitRow(lines[0])}
	for _, l := range lines[2:] {
		rows = append(rows, splitRow(l))
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	plain := make([][]string, len(rows))
	for i, r := range rows {
		plain[i] = make([]string, cols)
		for j := range cols {
			if j < len(r) {
				plain[i][j] = renderInline(r[j], mdStyle{})
			}
			widths[j] = max(widths[j], runewidth.StringWidth(plain[i][j]))
		}
	}
	border := func(l, m, r string) string {
		parts := make([]string, cols)
		for j, w := range widths {
			parts[j] = strings.Repeat("─", w+2)
		}
		return st.wrap(st.frame, l+strings.Join(parts, m)+r)
	}
	bar := st.wrap(st.frame, "│")
	out := []string{border("┌", "┬", "┐")}
	for i, r := range rows {
		var b strings.Builder
		b.WriteString(bar)
		for j := range cols {
			cell := ""
			if j < len(r) {
				cell = renderInline(r[j], st)
			}
			if i == 0 {
				cell = st.wrap(st.bold, plain[i][j])
			}
			pad := widths[j] - runewidth.StringWidth(plain[i][j])
			left := 0
			if j < len(align) {
				a := align[j]
				switch {
				case strings.HasPrefix(a, ":") && strings.HasSuffix(a, ":"):
					left = pad / 2
				case strings.HasSuffix(a, ":"):
					left = pad
				}
			}
			b.WriteString(" " + strings.Repeat(" ", left) + cell + strings.Repeat(" ", pad-left) + " " + bar)
		}
		out = append(out, b.String())
		if i == 0 {
			out = append(out, border("├", "┼", "┤"))
		}
	}
	return append(out, border("└", "┴", "┘"))
}

// isDelimiterRow reports whether l is a table's "|---|:--:|" row.
func isDelimiterRow(l string) bool {
	cells := splitRow(l)
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		t := strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if t == "" || strings.Trim(t, "-") != "" {
			return false
		}
	}
	return true
}

// splitRow splits a table row into trimmed cells at unescaped '|' outside
// code spans; the row's outer pipes are optional.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, "\\|") {
		l = l[:len(l)-1]
	}
	var cells []string
	var b strings.Builder
	inCode := false
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case c == '\\' && i+1 < len(l) && l[i+1] == '|':
			b.WriteByte('|')
			i++
		case c == '`':
			inCode = !inCode
			b.WriteByte(c)
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}
