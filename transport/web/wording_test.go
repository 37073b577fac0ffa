package web

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
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

// TestStatusEventBothLanguages: a status event carries the agent's text
// as sent (content) and, for the texts tools.StatusTexts knows, each
// language (content_zh, content_en) for the page to show in its own.
func TestStatusEventBothLanguages(t *testing.T) {
	s := &Server{}
	ok := true
	for _, tc := range []struct {
		st     chat.Status
		zh, en string
	}{
		{chat.Status{Type: api.StatusThinking, Content: "正在思考（第 2 步）"}, "正在思考（第 2 步）", "thinking (step 2)"},
		{chat.Status{Type: api.StatusToolResult, Content: "sys_monitor 完成 (5 ms)", Success: &ok}, "sys_monitor 完成 (5 ms)", "sys_monitor done (5 ms)"},
		{chat.Status{Type: api.StatusToolCall, Content: `sys_monitor {}`}, "", ""},
	} {
		b, err := json.Marshal(s.eventData(chat.Event{Kind: chat.KindStatus, Status: &tc.st}))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		json.Unmarshal(b, &got)
		if got["content"] != tc.st.Content || got["type"] != tc.st.Type {
			t.Errorf("%s: %s", tc.st.Content, b)
		}
		if zh, _ := got["content_zh"].(string); zh != tc.zh {
			t.Errorf("%s: content_zh %q, want %q", tc.st.Content, zh, tc.zh)
		}
		if en, _ := got["content_en"].(string); en != tc.en {
			t.Errorf("%s: content_en %q, want %q", tc.st.Content, en, tc.en)
		}
	}
}
