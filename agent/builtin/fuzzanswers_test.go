package builtin

import (
	"strings"
	"testing"
)

// FuzzFileAnswers: whatever a file holds, the answers that read it —
// a setting, a comparison, its errors — return text and do not panic,
// and a setting named like a password never shows its value.
func FuzzFileAnswers(f *testing.F) {
	for _, s := range keyFixtures {
		f.Add(s)
	}
	f.Add("{\"a\": [1, {\"b\": null}]}")
	f.Add("[s]\npassword = zz-secret-zz\n")
	f.Fuzz(func(t *testing.T, content string) {
		for _, name := range []string{"c.yaml", "c.json", "c.toml", "c.ini", "c.properties", ".env", "c.conf"} {
			got := describeRead(true, Intent{input: "数据库密码和端口是多少"}, name, content, false)
			if got == "" {
				t.Fatalf("%s: no answer", name)
			}
			if s, ok := keyAnswer(false, "password", name, content); ok && strings.Contains(content, "zz-secret-zz") && strings.Contains(s, "zz-secret-zz") && !strings.Contains(s, "Content of") {
				t.Fatalf("%s: secret shown: %q", name, s)
			}
			c := content
			old := "a: 1\npassword: zz-secret-zz\n"
			describeCompare(false, readFile{Filename: name, Content: &old, UploadedAt: "1"}, readFile{Filename: name, Content: &c, UploadedAt: "2"})
		}
		describeErrors(false, "a.log", content, false)
	})
}
