package builtin

import "strings"

// codeBlock returns text in a fenced code block that the text cannot
// close: by CommonMark's rule a fence closes only on a line of at least
// as many backticks as opened it, so the fence is one backtick longer
// than the longest run of backticks in text (at least three). Command
// output, file lines and log lines are untrusted text, and a "```" in
// them must not end the block and turn the rest of the answer into
// Markdown. It is the one place answers fence text.
func codeBlock(text string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	return fence + "\n" + text + "\n" + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			n = 0
			continue
		}
		n++
		best = max(best, n)
	}
	return best
}

// codeSpan returns text as an inline code span that the text cannot
// end: delimited by one backtick more than its longest run, padded with
// a space where it begins or ends with a backtick (CommonMark strips
// one), and on one line.
func codeSpan(text string) string {
	text = strings.Join(strings.Fields(strings.ReplaceAll(text, "\n", " ")), " ")
	d := strings.Repeat("`", longestRun(text, '`')+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		text = " " + text + " "
	}
	return d + text + d
}
