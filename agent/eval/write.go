package eval

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// WriteOptions say what Write prints besides the misses and the
// summary.
type WriteOptions struct {
	// Detail adds the per-tool scores and the confusion matrix
	// ("opsassist eval --report").
	Detail bool
	// Tools orders the scores' rows and the matrix's rows and columns
	// (the specs' order); tools not in it follow, sorted.
	Tools []string
	// Chinese words the headings in Chinese. The miss, refused and
	// accuracy lines are read by scripts and stay the same in both.
	Chinese bool
}

// Write prints the report: a line per miss; with o.Detail the per-tool
// scores and the confusion matrix; the refused line when there are
// refusal cases; and last the summary, "accuracy: 0.XXX (K/N)", which
// scripts read.
func (r Report) Write(w io.Writer, o WriteOptions) error {
	var b strings.Builder
	for _, m := range r.Misses {
		b.WriteString(m.String() + "\n")
	}
	if o.Detail {
		r.writeScores(&b, o)
		r.writeConfusion(&b, o)
	}
	if l := r.RefusedLine(); l != "" {
		b.WriteString(l + "\n")
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func say(zh bool, chinese, english string) string {
	if zh {
		return chinese
	}
	return english
}

// writeScores prints each label's precision and recall.
func (r Report) writeScores(b *strings.Builder, o WriteOptions) {
	if len(r.Misses) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(say(o.Chinese,
		"各工具的精确率与召回率（只看选了哪个工具；准确率还检查参数）：\n",
		"per-tool precision and recall (the tool choice alone; accuracy also checks arguments):\n"))
	rows := [][]string{{
		say(o.Chinese, "工具", "tool"), say(o.Chinese, "应选", "want"), say(o.Chinese, "实选", "got"),
		say(o.Chinese, "选对", "right"), say(o.Chinese, "精确率", "precision"), say(o.Chinese, "召回率", "recall"),
	}}
	for _, s := range r.Scores(o.Tools) {
		p, pok := s.Precision()
		rc, rok := s.Recall()
		rows = append(rows, []string{s.Tool, strconv.Itoa(s.Want), strconv.Itoa(s.Got), strconv.Itoa(s.Right), ratio(p, pok), ratio(rc, rok)})
	}
	align(b, rows)
}

// writeConfusion prints the matrix: rows the wanted tool, columns the
// chosen one, "." for zero.
func (r Report) writeConfusion(b *strings.Builder, o WriteOptions) {
	b.WriteString("\n")
	b.WriteString(say(o.Chinese,
		"混淆矩阵（行：应选的工具，列：实际选的工具；. 为 0）：\n",
		"confusion matrix (rows: wanted tool, columns: chosen tool; . is 0):\n"))
	labels := r.Labels(o.Tools)
	m := r.Confusion(o.Tools)
	head := append([]string{say(o.Chinese, "应选＼实选", "want\\got")}, labels...)
	rows := [][]string{head}
	for i, l := range labels {
		if l == ErrorLabel {
			continue // no case wants an error
		}
		row := []string{l}
		for _, n := range m[i] {
			if n == 0 {
				row = append(row, ".")
			} else {
				row = append(row, strconv.Itoa(n))
			}
		}
		rows = append(rows, row)
	}
	align(b, rows)
	b.WriteString("\n")
}

// ratio formats a score, "-" when it is undefined.
func ratio(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

// align writes rows as a table: the first column left-aligned, the
// others right-aligned, two spaces apart, by display width (a CJK
// character is two columns wide), without trailing spaces.
func align(b *strings.Builder, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], width(cell))
		}
	}
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-width(cell))
			switch {
			case i == 0:
				line.WriteString(cell + pad)
			default:
				line.WriteString("  " + pad + cell)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// width is s's display width in a terminal: two columns for wide
// (CJK and full-width) characters, one for the others.
func width(s string) int {
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || (r >= 0xFF00 && r <= 0xFF60) || (r >= 0x3000 && r <= 0x303F) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
