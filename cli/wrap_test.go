package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	igolden "opsassist/internal/golden"
)

// TestHelpWrapsToWidth: the REPL's /help, in both languages, fits 60
// (and 40) columns, continuation lines under the description column, no
// word lost; at width 0 (not a terminal) it is unchanged. Golden:
// testdata/help_wrapped.golden.
func TestHelpWrapsToWidth(t *testing.T) {
	var b strings.Builder
	for _, text := range []string{replHelp, replHelpZh} {
		if got := wrapHelp(text, 0); got != text {
			t.Errorf("width 0 changed the text:\n%s", got)
		}
		for _, width := range []int{60, 40} {
			got := wrapHelp(text, width)
			for _, line := range strings.Split(strings.TrimRight(got, "\n"), "\n") {
				if runewidth.StringWidth(line) > width {
					t.Errorf("width %d: %d columns: %q", width, runewidth.StringWidth(line), line)
				}
			}
			if squash(got) != squash(text) {
				t.Errorf("width %d: text changed:\n%s", width, got)
			}
			fmt.Fprintf(&b, "--- width %d\n%s", width, got)
		}
	}
	igolden.Check(t, filepath.Join("testdata", "help_wrapped.golden"), b.String(), *update)
}

// squash drops the spaces and line breaks, which wrapping moves.
func squash(s string) string {
	return strings.NewReplacer(" ", "", "\n", "").Replace(s)
}
