package tools

import (
	"encoding/json"
	"strings"
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

// FuzzRedactMySQL: any command line comes back whole but for -p values
// (never a panic), and a changed line still holds every word that is not
// a -p password.
func FuzzRedactMySQL(f *testing.F) {
	for _, s := range []string{"mysql -pX", "cd /tmp\nmysql -u root -p'a b' db", "ssh h 'mysql -pS'", "mysql \\\n -pS", "sudo -u root mysql -pS>x", "'unclosed mysql -pS", "mysql", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := redactMySQL(s)
		if out == s {
			return
		}
		if !strings.Contains(out, "-p"+redacted) {
			t.Fatalf("changed without a -p password: %q → %q", s, out)
		}
		if len(out) > len(s)+len(redacted)*strings.Count(s, "-p") {
			t.Fatalf("grew: %q → %q", s, out)
		}
	})
}
