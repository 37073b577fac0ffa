package pathguard

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// TestErrorQuotesLongPathsShort: a refusal quotes the path the client
// wrote, but a 60 KB path comes back as its head and tail, valid UTF-8,
// and the cause does not repeat it.
func TestErrorQuotesLongPathsShort(t *testing.T) {
	for _, p := range []string{
		"/" + strings.Repeat("a", 60000),
		"/" + strings.Repeat("长", 20000) + "/etc/shadow",
	} {
		for _, e := range []*Error{
			{Kind: ErrOutsideRoots, Path: p},
			{Kind: ErrForbidden, Path: p, Pattern: "shadow"},
			{Kind: ErrInvalid, Path: p, Err: &fs.PathError{Op: "open", Path: p, Err: syscall.ENAMETOOLONG}},
		} {
			msg := e.Error()
			if len(msg) > 400 || !utf8.ValidString(msg) {
				t.Fatalf("%d-byte message (valid UTF-8 %v): %.200q", len(msg), utf8.ValidString(msg), msg)
			}
			if !strings.Contains(msg, "…") || !strings.Contains(msg, "bytes)") {
				t.Fatalf("long path not marked as cut: %q", msg)
			}
			if !errors.Is(e, e.Kind) {
				t.Fatalf("%q does not match its kind", msg)
			}
		}
	}
	short := (&Error{Kind: ErrOutsideRoots, Path: "../../etc/passwd"}).Error()
	if short != `"../../etc/passwd" is outside the directories the assistant may read` {
		t.Fatalf("short path: %q", short)
	}
}
