package builtin

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A search snippet is a quotation, not document structure: shown inside
// a numbered list item, its table rows, headings, fences, list markers
// and stray backticks would otherwise end the list, start a table or
// turn the rest of the answer into code. quoteSnippet flattens it to one
// line of plain text that no Markdown renderer reads as a block.

var (
	reHeadingMark = regexp.MustCompile(`^#{1,6}\s+`)
	reTableSep    = regexp.MustCompile(`^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$`)
	// reRuleResidue is what is left of a table's separator row or a rule
	// after a cut: dashes, colons and pipes only ("|------|---…").
	reRuleResidue = regexp.MustCompile(`^[|:\s]*-{2,}[-|:\s]*…?$`)
	reListMark    = regexp.MustCompile(`^([-*+]|\d{1,9}[.)])(\s+|$)`)
	reQuoteMark   = regexp.MustCompile(`^(>\s*)+`)
	reFenceLine   = regexp.MustCompile("^(```|~~~)")
	// reLink is a whole link or image; its text is kept.
	reLink = regexp.MustCompile(`!?\[([^\]\n]*)\]\(([^)\s]*)\)+`)
	// reLinkCut is a link the cut left open: "[text](docs/x.md#con".
	reLinkCut = regexp.MustCompile(`!?\[([^\]\n]*)\](\([^)\s]*)?(\s*…)?$`)
	reSpaces  = regexp.MustCompile(`\s+`)
)

// quoteSnippet renders a search snippet as one line of plain text that
// cannot break the answer around it: table rows become "a · b", heading,
// list and quote marks are dropped, fence lines removed (their code kept
// on the line), links keep their text, and every backtick, emphasis
// marker and pipe left is removed, so nothing opens that does not close.
//
// A snippet does not start mid-sentence without saying so: one whose
// first line continues a sentence (midSentence: "and where the next
// features go: …") is marked with "…" at the front. A table's header row
// (the row just before its separator row) goes with the separator: the
// cells quoted are the rows that say something.
func quoteSnippet(s string) string {
	var parts []string
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	// block: the first line with text starts a block (list, heading,
	// quote), so its text may begin in lower case; decided once that line
	// is seen.
	block, decided := false, false
	for i, line := range lines {
		if reFenceLine.MatchString(line) {
			continue
		}
		if line == "" || reTableSep.MatchString(line) {
			continue
		}
		if strings.Contains(line, "|") && i+1 < len(lines) && !reRuleResidue.MatchString(line) &&
			(reTableSep.MatchString(lines[i+1]) || reRuleResidue.MatchString(lines[i+1])) {
			continue // a header row
		}
		if reRuleResidue.MatchString(line) {
			if strings.HasSuffix(line, "…") {
				parts = append(parts, "…") // the cut stays marked
			}
			continue
		}
		line = reQuoteMark.ReplaceAllString(line, "")
		line = reHeadingMark.ReplaceAllString(line, "")
		line = reListMark.ReplaceAllString(line, "")
		if strings.HasPrefix(line, "|") || strings.Count(line, "|") >= 2 {
			line = tableRow(line)
		}
		if !decided && strings.Trim(line, "|…:-*_`#>.)0123456789 ") != "" {
			// Code does not count as a block here: a snippet cut inside
			// a code block cannot tell an opening fence from a closing
			// one, and a "…" before code is harmless.
			block, decided = startsBlock(lines[i]), true
		}
		parts = append(parts, line)
	}
	out := strings.Join(parts, " ")
	out = reLink.ReplaceAllString(out, "$1")
	out = reLinkCut.ReplaceAllString(out, "$1$3")
	out = strings.NewReplacer("`", "", "**", "", "__", "", "|", "·").Replace(out)
	out = reSpaces.ReplaceAllString(strings.TrimSpace(out), " ")
	// A line that begins like a block (list, heading, quote) would still
	// start one after the indentation the answer adds.
	// Marks are stripped until none is left: "1. 2. x" or "- 1." would
	// otherwise start a list once the first one is gone, and "1." alone
	// is an empty list item.
	for {
		cut := strings.TrimLeft(reListMark.ReplaceAllString(out, ""), "#>=-*+ ")
		if cut == out {
			break
		}
		out = cut
	}
	if out == "" || out == "…" {
		return "…" // a blank line would end the list item; quotesNothing
	}
	if !block && midSentence(out) {
		out = "… " + out
	}
	return out
}

// startsBlock reports whether a line starts a Markdown block (heading,
// list item, quote, table row, code fence), whose text may begin in
// lower case.
func startsBlock(line string) bool {
	return reHeadingMark.MatchString(line) || reListMark.MatchString(line) || reQuoteMark.MatchString(line) ||
		strings.HasPrefix(line, "|") || reFenceLine.MatchString(line)
}

// midSentence reports whether quoted text starts inside a sentence: with
// a lower-case letter or a punctuation mark that only follows text
// (",;:.)]}"). A Chinese start cannot be told this way and is taken as
// a sentence start; "…" is already marked.
func midSentence(quoted string) bool {
	r, _ := utf8.DecodeRuneInString(quoted)
	return unicode.IsLower(r) || strings.ContainsRune(",;:.)]}", r)
}

// tableRow is a table row's cells joined with " · ".
func tableRow(line string) string {
	cells := strings.Split(strings.Trim(line, "| "), "|")
	kept := cells[:0]
	for _, c := range cells {
		if c = strings.TrimSpace(c); c != "" {
			kept = append(kept, c)
		}
	}
	return strings.Join(kept, " · ")
}

// quotesNothing reports whether a snippet quoted to nothing but the
// ellipsis: such a hit shows no content and is left out of an answer.
func quotesNothing(quoted string) bool { return quoted == "…" }
