package builtin

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// codeLines parses md's fenced code blocks by CommonMark's rules (an
// opening line of three or more backticks or tildes, indented at most
// three spaces; a closing line of at least as many of the same character
// and nothing else) and returns, per line, whether it is inside a block
// (fence lines excluded), and whether a block is left open at the end.
func codeLines(md string) (inside []bool, open bool) {
	var fc byte
	var flen int
	for _, line := range strings.Split(md, "\n") {
		l := line
		if t := strings.TrimLeft(l, " "); len(l)-len(t) <= 3 {
			l = t
		}
		run := 0
		if l != "" && (l[0] == '`' || l[0] == '~') {
			run = longestRun(l[:len(l)-len(strings.TrimLeft(l, l[:1]))], l[0])
		}
		switch {
		case fc == 0 && run >= 3:
			fc, flen = l[0], run
			inside = append(inside, false)
		case fc != 0 && run >= flen && l[0] == fc && strings.TrimSpace(l[run:]) == "":
			fc = 0
			inside = append(inside, false)
		default:
			inside = append(inside, fc != 0)
		}
	}
	return inside, fc != 0
}

// hostile are texts that try to end a fence early.
var hostile = []string{
	"```", "````", "ERROR ```\n```\nERROR x\n# heading error", "   ```", "```go", "``````````", "~~~", "a ``` b\n```` \nc",
}

// TestCodeBlockCannotBeClosed: whatever the text, every one of its lines
// is inside the block and the block is closed by its own fence.
func TestCodeBlockCannotBeClosed(t *testing.T) {
	for _, text := range hostile {
		md := "before\n" + codeBlock(text) + "\nafter"
		inside, open := codeLines(md)
		n := strings.Count(text, "\n") + 1
		if open || inside[0] || inside[len(inside)-1] {
			t.Errorf("%q: open %v, shape %v\n%s", text, open, inside, md)
			continue
		}
		for i := 2; i < 2+n; i++ {
			if !inside[i] {
				t.Errorf("%q: line %d of the answer escaped the block\n%s", text, i, md)
			}
		}
	}
}

// TestAnswersFenceHostileText: the answers that quote log lines, file
// lines and command output keep them inside their block, and the text
// after the block (a note, an exit code) stays outside.
func TestAnswersFenceHostileText(t *testing.T) {
	cmd := func(out string) string {
		raw, _ := json.Marshal(map[string]any{"command": "x", "exit_code": 1, "stdout": out, "stderr": "boom"})
		return describeCommand(false, result{Output: raw, Success: true})
	}
	for _, text := range hostile {
		for name, md := range map[string]string{
			"errors":  describeErrors(false, "app.log", "ERROR first\n"+strings.ReplaceAll(text, "\n", "\nERROR ")+" ERROR\nWARN last", true),
			"read":    describeRead(false, Intent{input: "show the file"}, "notes.txt", text+"\nlast line", true),
			"lines":   describeRead(false, Intent{input: "what about error"}, "notes.txt", "error "+strings.ReplaceAll(text, "\n", " error\nerror ")+"\nerror last", false),
			"command": cmd(text + "\nlast"),
		} {
			inside, open := codeLines(md)
			lines := strings.Split(md, "\n")
			if open || inside[len(inside)-1] && !strings.HasSuffix(md, "\n") {
				t.Errorf("%s %q: block left open or the note inside it:\n%s", name, text, md)
				continue
			}
			for i, l := range lines {
				if strings.Contains(l, "last") && !inside[i] {
					t.Errorf("%s %q: line %d %q escaped the block:\n%s", name, text, i, l, md)
				}
				if strings.HasPrefix(l, "(long file") || strings.HasPrefix(l, "Exit code") {
					if inside[i] {
						t.Errorf("%s %q: note %q inside the block:\n%s", name, text, l, md)
					}
				}
			}
		}
	}
}

// TestQuoteSnippetListMarks: a snippet never starts a list item, even
// an empty one ("1.") or one the first mark hid ("1. 2. x").
func TestQuoteSnippetListMarks(t *testing.T) {
	for in, want := range map[string]string{
		"1. ": "…", "1.": "…", "2)": "…", "-": "…", "1. 2. x": "x", "- 1. x": "x", "* - + 3) y": "y", "1.5 GB": "1.5 GB",
	} {
		got := quoteSnippet(in)
		if got != want {
			t.Errorf("quoteSnippet(%q) = %q, want %q", in, got, want)
		}
		if kinds := blockShape("1. a\n   " + got); kinds[1] != "text" {
			t.Errorf("quoteSnippet(%q) = %q renders as %s", in, got, kinds[1])
		}
	}
	for i := 0; i < 20; i++ {
		in := strings.Repeat(fmt.Sprintf("%d. ", i), i+1)
		if got := quoteSnippet(in); got != "…" {
			t.Errorf("quoteSnippet(%q) = %q", in, got)
		}
	}
}

// TestCodeSpan: a command with backticks stays one code span; an
// ordinary one is shown as before.
func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"df -h":       "`df -h`",
		"echo `date`": "`` echo `date` ``",
		"a ``` b":     "````a ``` b````",
		"x\ny":        "`x y`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}
