package chat_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// pkgPrefix finds a package prefix a message must not carry.
var pkgPrefix = regexp.MustCompile(`(^|[\s(:])(history|chat|uploads|client|pathguard|nplt|rdt|web|npltserver|tokens|toolcall|policy): `)

// TestMessageForEveryCode: whatever the code, a chat error's message has
// no package prefix and no Go-quoted id, however deep the sentinel is
// wrapped; what the person needs (the id, the reason) stays.
func TestMessageForEveryCode(t *testing.T) {
	const id = "3f2a9c"
	causes := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: %q", history.ErrNotFound, id), "conversation not found: " + id},
		{fmt.Errorf("history: conversation %s: %w", id, history.ErrNotFound), "conversation " + id + ": conversation not found"},
		{fmt.Errorf("%w: %q", history.ErrAmbiguous, "3f"), "ambiguous conversation id: 3f"},
		{fmt.Errorf("%w %q", chat.ErrPermissionUnknown, id), "unknown permission request " + id},
		{fmt.Errorf("%w %q: want yes or no", chat.ErrBadAnswer, "maybe"), "bad answer maybe: want yes or no"},
		{fmt.Errorf("saving conversation: %w", fmt.Errorf("uploads: writing %q: %w", "a.txt", errors.New("disk full"))), "saving conversation: writing a.txt: disk full"},
	}
	for _, code := range api.Codes() {
		for _, c := range causes {
			got := chat.Message(&chat.Error{Code: code, Err: c.err})
			if got != c.want {
				t.Errorf("%s: %q, want %q", code, got, c.want)
			}
			if pkgPrefix.MatchString(got) || strings.Contains(got, `"`+id+`"`) {
				t.Errorf("%s: %q keeps an internal prefix or a quoted id", code, got)
			}
		}
	}
}

// TestMessageKeepsWhatNeedsQuotes: a quoted text that would read wrong
// without its quotes (empty, spaces, control characters) stays quoted;
// other words that end in a colon stay.
func TestMessageKeepsWhatNeedsQuotes(t *testing.T) {
	for in, want := range map[string]string{
		`history: conversation not found: ""`:           `conversation not found: ""`,
		`history: conversation not found: "a b"`:        `conversation not found: "a b"`,
		`history: conversation not found: "a\nb"`:       `conversation not found: "a\nb"`,
		`chat: bad answer "x": want one of a, b`:        `bad answer x: want one of a, b`,
		`reason: the disk is full`:                      `reason: the disk is full`,
		`未知的对话 "会话一"`:                                   `未知的对话 会话一`,
		`unterminated "quote`:                           `unterminated "quote`,
		`uploads: uploads: nested: "x"`:                 `nested: x`,
		`file name "..": ` + uploads.ErrBadName.Error(): `file name "..": ` + strings.TrimPrefix(uploads.ErrBadName.Error(), "uploads: "),
	} {
		if got := chat.Message(errors.New(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if chat.Message(nil) != "" {
		t.Error("Message(nil)")
	}
}
