package tools

import (
	"encoding/json"
	"testing"
)

// FuzzRedact: whatever the arguments, Redact returns nil or valid JSON,
// and redacting its output again changes nothing more than "***" can.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		`{"args":["--password","x"]}`, `{"token":"t"}`, `{"a":"Authorization: Bearer abc"}`,
		`["https://u:p@h/x"]`, `"sk-abcdefghijklmnopqrstuvwx"`, `{}`, `[`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Redact(json.RawMessage(in))
		if out == nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Redact(%q) = %q, not JSON", in, out)
		}
		if again := Redact(out); again != nil && !json.Valid(again) {
			t.Fatalf("Redact(Redact(%q)) = %q, not JSON", in, again)
		}
	})
}
