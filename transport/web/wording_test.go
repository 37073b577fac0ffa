package web

import (
	"strings"
	"testing"
)

// TestPageWordsConversation: the page calls a conversation one thing in
// each language — "对话" and "conversation" — the permission choice too
// ("Allow for this conversation"); the wire names (allow_session) stay.
func TestPageWordsConversation(t *testing.T) {
	b, err := static.ReadFile("static/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, bad := range []string{"会话", "this session", "session grants"} {
		if strings.Contains(s, bad) {
			t.Errorf("i18n.js says %q", bad)
		}
	}
	for _, want := range []string{`allow_session: ["本对话允许", "Allow for this conversation"]`} {
		if !strings.Contains(s, want) {
			t.Errorf("i18n.js lacks %s", want)
		}
	}
}
