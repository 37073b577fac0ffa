package cli

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// helpDescColumn is the column the descriptions of the REPL's /help
// start at ("  /download TOKEN [PATH]  " is 26 wide).
const helpDescColumn = 26

// wrapHelp wraps a two-column help text ("  COMMAND   description") to
// width columns: a description too long for its line continues on the
// next lines under the description column; on a terminal too narrow
// for both columns each command is on a line of its own, its
// description indented under it. Words break at spaces and between Chinese characters;
// a word wider than the room left is cut. width ≤ 0 returns text as it
// is. Widths count Chinese characters double.
func wrapHelp(text string, width int) string {
	if width <= 0 {
		return text
	}
	// Narrower than the command column and a 24-column description, each
	// command gets its own line and its description the lines under it.
	col, stacked := helpDescColumn, width-helpDescColumn < 24
	if stacked {
		col = 4
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		head, desc := splitHelpLine(line)
		if runewidth.StringWidth(line) <= width && (!stacked || desc == "") {
			b.WriteString(line + "\n")
			continue
		}
		if desc == "" { // not two columns: wrap it as a paragraph
			head, desc = "", line
		}
		first := head
		if stacked || runewidth.StringWidth(head) > width-16 {
			b.WriteString(strings.TrimRight(head, " ") + "\n")
			first = ""
		}
		indent := col
		if first != "" {
			indent = runewidth.StringWidth(first)
		}
		for i, part := range wrapWords(desc, width-indent, width-col) {
			if i == 0 {
				b.WriteString(strings.Repeat(" ", indent-runewidth.StringWidth(first)) + first + part + "\n")
				continue
			}
			b.WriteString(strings.Repeat(" ", col) + part + "\n")
		}
	}
	return b.String()
}

// splitHelpLine splits "  COMMAND   description" after the spaces that
// end the command: head keeps them. desc is "" for a line without two
// spaces after its command.
func splitHelpLine(line string) (head, desc string) {
	start := len(line) - len(strings.TrimLeft(line, " "))
	i := strings.Index(line[start:], "  ")
	if i < 0 {
		return line, ""
	}
	j := start + i
	for j < len(line) && line[j] == ' ' {
		j++
	}
	return line[:j], line[j:]
}

// wrapWords breaks s into lines, the first at most first columns wide,
// the rest at most rest.
func wrapWords(s string, first, rest int) []string {
	first, rest = max(first, 8), max(rest, 8)
	var (
		lines []string
		cur   strings.Builder
		w     int
	)
	limit := first
	flush := func() {
		lines = append(lines, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		w, limit = 0, rest
	}
	for _, tok := range helpTokens(s) {
		tw := runewidth.StringWidth(tok)
		if tok == " " && w == 0 {
			continue
		}
		if w+tw > limit && w > 0 {
			flush()
			if tok == " " {
				continue
			}
		}
		for tw > limit { // a word longer than a line: cut it
			part := runewidth.Truncate(tok, limit, "")
			if part == "" {
				break
			}
			cur.WriteString(part)
			flush()
			tok = tok[len(part):]
			tw = runewidth.StringWidth(tok)
		}
		cur.WriteString(tok)
		w += tw
	}
	if cur.Len() > 0 || len(lines) == 0 {
		lines = append(lines, strings.TrimRight(cur.String(), " "))
	}
	return lines
}

// helpTokens splits s into words, single spaces and single wide
// (Chinese) characters, each a place a line may break before; closing
// punctuation stays with the character before it.
func helpTokens(s string) []string {
	var (
		toks []string
		cur  strings.Builder
	)
	end := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case closingPunct(r) && cur.Len() == 0 && len(toks) > 0 && toks[len(toks)-1] != " ":
			toks[len(toks)-1] += string(r)
		case closingPunct(r):
			cur.WriteRune(r)
		case r == ' ':
			end()
			toks = append(toks, " ")
		case runewidth.RuneWidth(r) == 2:
			end()
			cur.WriteRune(r)
		default:
			if cur.Len() > 0 && runewidth.RuneWidth([]rune(cur.String())[0]) == 2 {
				end()
			}
			cur.WriteRune(r)
		}
	}
	end()
	return toks
}

// closingPunct reports whether r may not start a line (Chinese closing
// punctuation and full-width commas, stops and colons).
func closingPunct(r rune) bool {
	return strings.ContainsRune("，。、；：！？）】》」』", r)
}
