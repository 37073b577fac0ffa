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

// FuzzQuestionAnswers: whatever the question — file names, keys written
// as files write them, line counts, in any language — an answer about
// a file is text, and its password's value is never shown.
func FuzzQuestionAnswers(f *testing.F) {
	for _, q := range []string{"显示我上传的日志的最后 3 行", "tail, last 99999999999999999999 lines", "前 0 行", "what's the database port in app.toml?",
		"server.port", "DB_PASSWORD 是什么", "a..b.[1]", "..--", "最后十一行", "which port does c.yaml's database.port use?"} {
		f.Add(q)
	}
	content := "server:\n  port: 8080\ndatabase:\n  port: 5432\n  password: zz-secret-zz\n"
	f.Fuzz(func(t *testing.T, q string) {
		for _, name := range []string{"c.yaml", "app.log", "env"} {
			got := describeRead(false, Intent{input: q}, name, content, false)
			if got == "" || strings.Contains(got, "zz-secret-zz") {
				t.Fatalf("%s %q: %q", name, q, got)
			}
		}
	})
}
