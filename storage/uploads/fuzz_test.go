package uploads

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzSanitizeName checks that any accepted name is a safe base name
// without invisible characters (bidi controls, zero-width and other
// format characters) and that sanitising is idempotent.
func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"config.yaml", "../../etc/passwd", `..\a`, "a\x00b", "报告.pdf", "...", " x ", "a/b/", "invoice\u202Efdp.exe", "\u200B", "..\u2066", "a\u180E\uFEFF.txt", "\U000E0001x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := SanitizeName(in)
		if err != nil {
			return
		}
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, "/\\\x00") || !utf8.ValidString(got) || len(got) > maxNameBytes {
			t.Fatalf("SanitizeName(%q) = %q", in, got)
		}
		if strings.IndexFunc(got, invisible) >= 0 || strings.IndexFunc(got, unicode.IsControl) >= 0 || strings.HasPrefix(got, ".") {
			t.Fatalf("SanitizeName(%q) = %q", in, got)
		}
		if again, err := SanitizeName(got); err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, got, again, err)
		}
	})
}
