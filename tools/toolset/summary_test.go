package toolset

import (
	"testing"
	"unicode"
)

// TestEveryToolHasSummaries: each built-in tool says what it does for
// people in Chinese and in English, each alone (opsassist tools shows the
// one of the CLI's locale): a Chinese summary with Chinese in it, an
// English one without.
func TestEveryToolHasSummaries(t *testing.T) {
	ws := t.TempDir()
	s, err := New(Config{Workspace: ws, Roots: []string{ws}, UploadsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	han := func(x string) bool {
		for _, r := range x {
			if unicode.Is(unicode.Han, r) {
				return true
			}
		}
		return false
	}
	for _, sp := range s.Registry.Specs() {
		if zh, en := sp.Summary.Zh, sp.Summary.En; !han(zh) || en == "" || han(en) {
			t.Errorf("%s: summary %q / %q", sp.Name, zh, en)
		}
	}
}
